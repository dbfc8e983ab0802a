// Start-up: what a CLI process loads, and the transpile cache it keeps between processes. Each case runs
// `toolgate check --json` in a real child process with a module-resolution tracer (--import), so "jiti
// was not loaded" is observed from outside the code, not reported by it. Speed itself is measured by
// `pnpm bench:startup`, not here.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { createHost } from "@toolgate/host";
import { repoRoot } from "../../helpers/cli-harness.js";
import { createTempProject, type TempProject } from "../../helpers/temp-project.js";
import { outputOf } from "../../helpers/child-output.js";

const mainPath = join(repoRoot, "packages/toolgate/src/cli/main.ts");
const tsxLoader = pathToFileURL(join(repoRoot, "node_modules/tsx/dist/loader.mjs")).href;
const tracer = pathToFileURL(join(repoRoot, "test/fixtures/trace-imports/register.mjs")).href;

interface CheckRun {
  code: number | null;
  plugins: { name: string; status: string; error?: string }[];
  /** Every module URL the process resolved. */
  resolved: string[];
  stderr: string;
}

const cleanup: (() => void)[] = [];
afterEach(() => {
  for (const remove of cleanup.splice(0)) remove();
});

function project(files: Record<string, string>): TempProject {
  const created = createTempProject(files);
  cleanup.push(created.remove);
  return created;
}

function cacheDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "toolgate-cache-test-"));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function check(cwd: string, cache: string): Promise<CheckRun> {
  const trace = join(cache, `trace-${Date.now()}-${Math.random().toString(36).slice(2)}.txt`);
  const env = { ...process.env, TOOLGATE_CACHE_DIR: cache, TOOLGATE_TRACE_IMPORTS: trace };
  const child = spawn(process.execPath, ["--import", tsxLoader, "--import", tracer, mainPath, "check", "--json", "--cwd", cwd], { env });
  return outputOf(child).then(({ code, stdout, stderr }) => {
    const resolved = existsSync(trace) ? readFileSync(trace, "utf8").split("\n").filter(Boolean) : [];
    rmSync(trace, { force: true });
    try {
      return { code, plugins: (JSON.parse(stdout) as CheckRun).plugins, resolved, stderr };
    } catch {
      throw new Error(`check printed no JSON (exit ${code}):\n${stdout}\n${stderr}`);
    }
  });
}

const loadedJiti = (run: CheckRun) => run.resolved.some((url) => /[/\\]jiti[/\\]/.test(url));
const namesOf = (run: CheckRun) => run.plugins.map((plugin) => `${plugin.name}:${plugin.status}`);

const jsPlugin = (name: string) => `export default { name: "${name}", hooks: { pre_tool_call() {} } };\n`;
const tsPlugin = (name: string) => `const label: string = "${name}";\nexport default { name: label, hooks: { pre_tool_call(): void {} } };\n`;

describe("what a CLI process loads", () => {
  it("loads .js and .mjs plugins through Node's import(), without jiti", async () => {
    const { dir } = project({ "package.json": '{ "type": "module" }', "plugins/a.mjs": jsPlugin("a"), "plugins/b.js": jsPlugin("b") });
    const run = await check(dir, cacheDir());
    expect(run.code, run.stderr).toBe(0);
    expect(namesOf(run)).toEqual(["a:loaded", "b:loaded"]);
    expect(run.resolved.some((url) => url.includes("/plugins/a.mjs"))).toBe(true);
    expect(loadedJiti(run)).toBe(false);
  });

  it("loads jiti for a .ts plugin the first time, and not from the second run on", async () => {
    const { dir } = project({ "plugins/typed.ts": tsPlugin("typed") });
    const cache = cacheDir();
    const first = await check(dir, cache);
    expect(first.code, first.stderr).toBe(0);
    expect(namesOf(first)).toEqual(["typed:loaded"]);
    expect(loadedJiti(first)).toBe(true);
    const second = await check(dir, cache);
    expect(namesOf(second)).toEqual(["typed:loaded"]);
    expect(loadedJiti(second)).toBe(false);
  });

  it("re-transpiles a .ts plugin edited between two processes, even with the same size and mtime", async () => {
    const created = project({ "plugins/edited.ts": tsPlugin("version-1") });
    const file = created.path("plugins/edited.ts");
    const cache = cacheDir();
    expect(namesOf(await check(created.dir, cache))).toEqual(["version-1:loaded"]);
    const before = statSync(file);
    writeFileSync(file, tsPlugin("version-2"));
    utimesSync(file, before.atime, before.mtime);
    expect(statSync(file).size).toBe(before.size);
    const after = await check(created.dir, cache);
    expect(namesOf(after)).toEqual(["version-2:loaded"]);
    expect(loadedJiti(after)).toBe(true);
  });

  it("a .ts plugin importing another .ts file still loads (through jiti) on every run", async () => {
    const { dir } = project({
      "plugins/entry.ts": 'import { label } from "./shared/label.ts";\nexport default { name: label, hooks: {} };\n',
      "plugins/shared/label.ts": 'export const label: string = "imports-ts";\n',
    });
    const cache = cacheDir();
    for (let run = 0; run < 2; run++) expect(namesOf(await check(dir, cache))).toEqual(["imports-ts:loaded"]);
  });
});

describe("one process, two hosts", () => {
  it("a host created after a .mjs plugin changed runs the new code", async () => {
    const created = project({ "plugins/counter.mjs": jsPlugin("before") });
    const first = await createHost({ cwd: created.dir, logger: false });
    await first.close();
    created.write({ "plugins/counter.mjs": jsPlugin("after-the-edit") });
    const second = await createHost({ cwd: created.dir, logger: false });
    await second.close();
    expect([first.plugins[0]?.name, second.plugins[0]?.name]).toEqual(["before", "after-the-edit"]);
  });
});
