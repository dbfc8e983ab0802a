// The publish story, end to end, against a real npm registry on 127.0.0.1 (Verdaccio):
// pack the SDK, the host and an example plugin as a release does (`pnpm pack`: build, publishConfig,
// workspace: ranges replaced), `npm publish` the tarballs, then a fresh project outside the workspace
// installs the host and the plugin with plain `npm install`, names the plugin in toolgate.config.mjs,
// and the installed `toolgate` CLI loads it (`check`) and blocks a call with it (`run`). Last, an
// author's path as docs/publishing.md tells it: `toolgate new`, `npm test`, `npm publish`, and a user's
// `toolgate add`. Then each framework adapter's example, copied into that project, compiles under strict
// and blocks `rm -rf /` with the plugin's reason reaching the model (the AI SDK's own mock model).
// @toolgate/* and toolgate-plugin-* come only from the local registry; everything else is proxied to
// the registry this machine's npm uses. Server and folders are removed even when a step fails.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packPackage, publishablePackages, type PackedPackage } from "../../scripts/lib/workspace-packages.js";
import { startLocalRegistry, type LocalRegistry } from "./local-registry.js";
import { machineRegistry, mustRun, runCommand, type CommandResult } from "./npm.js";

const pluginName = "toolgate-plugin-block-dangerous-shell";
const published = ["@toolgate/plugin-sdk", "@toolgate/shell", "@toolgate/host", "@toolgate/ai-sdk", pluginName];
/** The workspace's own TypeScript compiles the adapter examples, so the fresh project need not install it. */
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const examples = join(dirname(new URL(import.meta.url).pathname), "../fixtures/adapter-examples");

interface CheckReport {
  ok: boolean;
  plugins: { name: string; status: string; source: string }[];
}

describe("publishing to an npm registry and installing from it", () => {
  let work = "";
  let consumer = "";
  let registry: LocalRegistry | undefined;
  const packed: PackedPackage[] = [];

  // npm talks to the local registry only, with its token; the machine's user config is not read.
  const npmFlags = () => ["--registry", registry!.url, "--userconfig", registry!.npmrc, "--no-audit", "--no-fund"];
  const npm = (args: string[], cwd: string) => mustRun("npm", [...args, ...npmFlags()], { cwd, timeoutMs: 150_000 });
  const toolgate = (args: string[], env: NodeJS.ProcessEnv = {}): Promise<CommandResult> =>
    runCommand(join(consumer, "node_modules", ".bin", "toolgate"), args, { cwd: consumer, env, timeoutMs: 150_000 });

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), "toolgate-publish-"));
    const packages = publishablePackages().filter((pkg) => published.includes(pkg.manifest.name));
    expect(packages.map((pkg) => pkg.manifest.name).sort()).toEqual([...published].sort());
    for (const pkg of packages) packed.push(await packPackage(pkg, join(work, "tarballs")));
    registry = await startLocalRegistry(join(work, "registry"), await machineRegistry());
    // In dependency order (publishablePackages puts the SDK, then the host, first).
    for (const tarball of packed) await npm(["publish", tarball.tarball, "--access", "public", "--tag", "latest"], work);

    consumer = join(work, "consumer");
    writeFiles(consumer, {
      "package.json": JSON.stringify({ name: "toolgate-consumer", version: "1.0.0", private: true, type: "module" }, null, 2),
    });
    // The adapter's framework comes from upstream through the registry's proxy, as a user's would.
    await npm(["install", "@toolgate/host", "@toolgate/ai-sdk", "ai@^6", "zod@^4", pluginName, "--loglevel", "error"], consumer);
    writeFiles(consumer, {
      "toolgate.config.mjs": `import { defineConfig } from "@toolgate/host";\n\nexport default defineConfig({ plugins: [${JSON.stringify(pluginName)}] });\n`,
      "calls.jsonl": [
        { id: "1", name: "terminal", args: { command: "rm -rf /" } },
        { id: "2", name: "terminal", args: { command: "ls -la" } },
      ]
        .map((call) => JSON.stringify(call))
        .join("\n"),
    });
  }, 240_000);

  afterAll(async () => {
    await registry?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  }, 30_000);

  it("installs the published host, SDK and plugin from the local registry, not from upstream", () => {
    const lock = JSON.parse(readFileSync(join(consumer, "package-lock.json"), "utf8")) as {
      packages: Record<string, { version?: string; resolved?: string }>;
    };
    for (const { packedManifest } of packed) {
      const entry = lock.packages[`node_modules/${packedManifest.name}`];
      expect(entry?.version, packedManifest.name).toBe(packedManifest.version);
      expect(entry?.resolved?.startsWith(registry!.url), `${packedManifest.name} from ${entry?.resolved}`).toBe(true);
    }
  });

  it("toolgate check loads the plugin named in toolgate.config.mjs", async () => {
    const result = await toolgate(["check", "--json"]);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as CheckReport;
    expect(report.ok).toBe(true);
    expect(report.plugins).toContainEqual(expect.objectContaining({ name: "block-dangerous-shell", status: "loaded", source: "npm" }));
  });

  it("toolgate run blocks rm -rf / with the plugin and lets ls run", async () => {
    const result = await toolgate(["run", "calls.jsonl", "--json"]);
    expect(result.code, result.stderr).toBe(0);
    const outcomes = result.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { call: { id: string }; verdict: { action: string; plugin?: string } });
    expect(outcomes.map(({ call, verdict }) => [call.id, verdict.action, verdict.plugin])).toEqual([
      ["1", "block", "block-dangerous-shell"],
      ["2", "allow", undefined],
    ]);

    const human = await toolgate(["run", "calls.jsonl"]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/BLOCK by block-dangerous-shell/);
  });

  it("the installed CLI runs a plugin in a worker thread (isolation: worker) from its own bundle", async () => {
    writeFiles(join(consumer, "isolated"), {
      "toolgate.config.mjs": `export default { plugins: [[${JSON.stringify(pluginName)}, {}, { isolation: "worker" }]] };\n`,
    });
    const result = await toolgate(["run", "calls.jsonl", "--json", "--cwd", join(consumer, "isolated")]);
    expect(result.code, result.stderr).toBe(0);
    const verdicts = result.stdout
      .trim()
      .split("\n")
      .map((line) => (JSON.parse(line) as { verdict: { action: string; plugin?: string } }).verdict);
    expect(verdicts.map(({ action, plugin }) => [action, plugin])).toEqual([
      ["block", "block-dangerous-shell"],
      ["allow", undefined],
    ]);
  });

  it("the published @toolgate/host/testing harness runs the installed plugin in the installed host", async () => {
    writeFiles(consumer, {
      "harness.mjs": `
import { createTestHost } from "@toolgate/host/testing";
import plugin from ${JSON.stringify(pluginName)};
const testHost = await createTestHost(plugin, { tools: ["terminal"] });
const outcome = await testHost.call("terminal", { command: "rm -rf /" });
await testHost.close();
console.log(JSON.stringify({ status: outcome.result.status, executed: outcome.executed }));
`,
    });
    const result = await mustRun(process.execPath, ["harness.mjs"], { cwd: consumer });
    expect(JSON.parse(result.stdout)).toEqual({ status: "blocked", executed: false });
  });

  it("the @toolgate/ai-sdk example compiles under strict and blocks rm -rf / with the plugin's reason reaching the model", async () => {
    writeFiles(consumer, {
      "adapters/ai-sdk.ts": readFileSync(join(examples, "ai-sdk.ts"), "utf8"),
      "adapters/tsconfig.json": JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          lib: ["ES2023", "DOM"],
          module: "NodeNext",
          moduleResolution: "NodeNext",
          strict: true,
          exactOptionalPropertyTypes: true,
          noUncheckedIndexedAccess: true,
          skipLibCheck: true,
          types: [],
          outDir: "dist",
        },
        include: ["ai-sdk.ts"],
      }),
    });
    await mustRun(process.execPath, [tsc, "-p", "adapters/tsconfig.json"], { cwd: consumer });
    const result = await mustRun(process.execPath, ["adapters/dist/ai-sdk.js"], { cwd: consumer });
    const outcome = JSON.parse(result.stdout) as { ran: string[]; read: string[]; text: string };
    expect(outcome.ran).toEqual(["ls"]);
    expect(outcome.read[0]).toMatch(/^execution-denied: Tool call blocked by plugin "block-dangerous-shell": /);
    expect(outcome.read[1]).toBe('text: "ran ls"');
    expect(outcome.text).toBe("done");
  }, 60_000);

  it("an author's plugin goes from toolgate new to npm publish, and toolgate add puts it in a user's config", async () => {
    const name = "toolgate-plugin-no-root-delete";
    const author = join(work, "author");
    const scaffold = await toolgate(["new", name, "--dir", author]);
    expect(scaffold.code, scaffold.stderr).toBe(0);
    const pluginDir = join(author, name);

    // The author's loop: install (the SDK and host come from the registry too), test with the harness.
    await npm(["install", "--loglevel", "error"], pluginDir);
    await mustRun("npm", ["test"], { cwd: pluginDir });

    // Publishing as scaffolded: exports already point at dist/, and prepack builds it.
    await npm(["publish"], pluginDir);
    const tarball = await npm(["pack", `${name}@latest`, "--dry-run", "--json"], work);
    const files = (JSON.parse(tarball.stdout) as { files: { path: string }[] }[])[0]!.files.map((file) => file.path);
    expect(files).toEqual(expect.arrayContaining(["package.json", "dist/index.js", "dist/index.d.ts"]));
    expect(files.filter((file) => file.startsWith("src/") || /\.test\./.test(file))).toEqual([]);

    // The user's side: `toolgate add` installs with the project's npm and edits toolgate.config.mjs.
    const add = await toolgate(["add", name], { npm_config_registry: registry!.url, npm_config_userconfig: registry!.npmrc });
    expect(add.code, `${add.stdout}\n${add.stderr}`).toBe(0);
    expect(readFileSync(join(consumer, "toolgate.config.mjs"), "utf8")).toContain(name);

    const check = await toolgate(["check", "--json"]);
    expect(check.code, check.stderr).toBe(0);
    const report = JSON.parse(check.stdout) as CheckReport;
    expect(report.plugins.map((plugin) => [plugin.name, plugin.status])).toEqual(
      expect.arrayContaining([
        ["block-dangerous-shell", "loaded"],
        ["no-root-delete", "loaded"],
      ]),
    );
  }, 180_000);
});

function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    const target = join(dir, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, content);
  }
}
