import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { publishablePackages } from "../../scripts/lib/workspace-packages.js";
import { makeTempDir, removeTempDirs, repoRoot, runCli, writeFiles } from "../helpers/cli-harness.js";
import { codeLangs, docPages, shellLangs, snippetsOf, type Snippet } from "./doc-snippets.js";

// Every shell line and code block a reader may copy from the docs either runs here (code: typechecked
// as written, strict, against the workspace's packages) or says it is an excerpt, or names the test that
// runs it. The convention is in CONTRIBUTING.md ("Snippets in the docs").

const snippets = docPages(repoRoot).flatMap((page) => snippetsOf(repoRoot, page));
const testedBy = (snippet: Snippet) => /^tested-by:\s*(\S+)$/.exec(snippet.marker ?? "")?.[1];
const marked = (snippet: Snippet) => snippet.marker === "excerpt" || testedBy(snippet) !== undefined;
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const tsxLoader = pathToFileURL(join(repoRoot, "node_modules/tsx/dist/loader.mjs")).href;

describe("snippets in the docs", () => {
  it("finds the pages and their blocks", () => {
    expect(docPages(repoRoot)).toEqual(expect.arrayContaining(["README.md", "docs/agents.md", "packages/host/README.md", "plugins/rate-limit/README.md"]));
    expect(snippets.filter((snippet) => shellLangs.has(snippet.lang)).length).toBeGreaterThan(20);
    expect(snippets.filter((snippet) => codeLangs.has(snippet.lang)).length).toBeGreaterThan(20);
  });

  it("every shell block is an excerpt or names the test that runs it", () => {
    const unrun = snippets.filter((snippet) => shellLangs.has(snippet.lang) && !marked(snippet)).map((snippet) => snippet.where);
    expect(unrun, "mark each with <!-- excerpt --> or <!-- tested-by: test/… --> on the line before the fence").toEqual([]);
  });

  it("a block that names its test names a test that reads that page", () => {
    const wrong = snippets.flatMap((snippet) => {
      const test = testedBy(snippet);
      if (test === undefined) return [];
      const path = join(repoRoot, test);
      if (!existsSync(path)) return [`${snippet.where}: ${test} does not exist`];
      return readFileSync(path, "utf8").includes(snippet.file) ? [] : [`${snippet.where}: ${test} never reads ${snippet.file}`];
    });
    expect(wrong).toEqual([]);
  });

  it("every shell block, excerpts too, names commands the CLI has and packages the workspace publishes", () => {
    const commands = cliCommands();
    const packages = new Set(publishablePackages().map((pkg) => pkg.manifest.name));
    const wrong = snippets.filter((snippet) => shellLangs.has(snippet.lang)).flatMap((snippet) => wrongNames(snippet, commands, packages));
    expect(wrong).toEqual([]);
  });

  it("every code block that is not an excerpt typechecks as written, strict, against the workspace's packages", { timeout: 120_000 }, () => {
    const checked = snippets.filter((snippet) => codeLangs.has(snippet.lang) && snippet.marker !== "excerpt");
    expect(checked.length).toBeGreaterThan(5);
    const errors = typecheck(checked);
    expect(errors, "fix the snippet, or mark it <!-- excerpt --> on the line before the fence").toEqual([]);
  });
});

describe("snippets that run as a reader would run them", () => {
  afterAll(removeTempDirs);

  it("docs/policies/command-hooks.md: its config and its script, as written, veto rm -rf and let ls through", async () => {
    const page = "docs/policies/command-hooks.md";
    const [config] = snippetsOf(repoRoot, page).filter((snippet) => snippet.lang === "yaml");
    const [script] = snippetsOf(repoRoot, page).filter((snippet) => snippet.marker === "tested-by: test/docs/snippets.test.ts");
    expect(config?.code).toContain("# toolgate.config.yaml");
    expect(script?.code).toContain("# guards/no-rm.sh (chmod +x)");
    const dir = makeTempDir("os", "command-hook-page-");
    writeFiles(dir, { "toolgate.config.yaml": config!.code, "guards/no-rm.sh": script!.code });
    chmodSync(join(dir, "guards/no-rm.sh"), 0o755);
    const denied = await runCli(["explain", "Bash", JSON.stringify({ command: "rm -rf build" }), "--cwd", dir]);
    expect(denied.stdout).toContain("verdict: BLOCK by command:./guards/no-rm.sh: rm -rf is not allowed in this repository");
    const allowed = await runCli(["explain", "Bash", JSON.stringify({ command: "ls" }), "--cwd", dir]);
    expect(allowed.stdout).toContain("verdict: ALLOW");
  });

  it("README.md's embed snippet runs as written (tsx), its stand-in tool answering through the gate", () => {
    const embed = snippetsOf(repoRoot, "README.md").find((snippet) => snippet.code.includes("const runInSandbox ="));
    expect(embed?.marker).toBe("tested-by: test/docs/snippets.test.ts");
    const dir = makeTempDir("repo", "embed-snippet-");
    writeFiles(dir, { "embed.mts": `${embed!.code}\nconsole.log(JSON.stringify(messages));\n` });
    const run = spawnSync(process.execPath, ["--import", tsxLoader, join(dir, "embed.mts")], { cwd: dir, encoding: "utf8" });
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual([{ role: "tool", tool_call_id: "call_1", content: "ran: ls" }]);
  });
});

/**
 * `toolgate <command>` with a command the CLI does not have, `npx -p <package> toolgate` with a package
 * other than the CLI's (`@toolgate/host` has no bin), and `@toolgate/…` names the workspace does not publish.
 */
function wrongNames(snippet: Snippet, commands: ReadonlySet<string>, packages: ReadonlySet<string>): string[] {
  const wrong: string[] = [];
  for (const command of toolgateCommands(snippet.code)) if (!commands.has(command)) wrong.push(`${snippet.where}: toolgate has no command "${command}"`);
  for (const [, pkg] of snippet.code.matchAll(/npx[ \t]+(?:-\S+[ \t]+)*?(?:-p|--package)[ \t=]+(\S+)[ \t]+toolgate\b/g))
    if (pkg !== "toolgate") wrong.push(`${snippet.where}: the toolgate CLI is the "toolgate" package, not "${pkg}"`);
  for (const [name] of snippet.code.matchAll(/@toolgate\/[\w-]+/g))
    if (!packages.has(name)) wrong.push(`${snippet.where}: no package "${name}" in the workspace`);
  return wrong;
}

/** The commands the CLI registers: the keys of main.ts's `commandModules` (hook's module is in src/hook/, not commands/). */
function cliCommands(): Set<string> {
  const main = readFileSync(join(repoRoot, "packages/toolgate/src/cli/main.ts"), "utf8");
  const table = /const commandModules[^{]*\{([\s\S]*?)\n\};/.exec(main)?.[1] ?? "";
  return new Set([...table.matchAll(/^\s+"?([a-z][\w-]*)"?: async/gm)].map((match) => match[1]!));
}

/** The command word of each `toolgate …` a shell line runs: directly, through `npx [flags]`, or after `|`, `&&`, `;`. */
function toolgateCommands(code: string): string[] {
  const commands: string[] = [];
  for (const segment of code.replace(/\\\n/g, " ").split(/\n|\||&&|;/)) {
    const words = segment.replace(/#.*$/, "").trim().split(/\s+/);
    while (/^\w+=/.test(words[0] ?? "")) words.shift();
    if (words[0] === "npx") {
      words.shift();
      while (words[0]?.startsWith("-")) if (["-p", "--package"].includes(words.shift()!)) words.shift();
    }
    if (words[0] === "toolgate" && /^[a-z]/.test(words[1] ?? "")) commands.push(words[1]!);
  }
  return commands;
}

/** Writes each snippet as a module under test/.tmp and runs tsc over them once; the errors, at the docs' lines. */
function typecheck(checked: readonly Snippet[]): string[] {
  const dir = join(repoRoot, "test/.tmp/doc-snippets");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const byFile = new Map<string, Snippet>();
  for (const snippet of checked) {
    const name = `${snippet.where.replace(/[/:.]/g, "_")}.${/^(js|javascript|mjs)$/.test(snippet.lang) ? "mjs" : "mts"}`;
    byFile.set(name, snippet);
    // `export {}` makes a snippet without imports a module, so top-level await is allowed as in the docs.
    writeFileSync(join(dir, name), `${snippet.code}\nexport {};\n`);
  }
  const config = {
    extends: "../../../tsconfig.base.json",
    compilerOptions: { noEmit: true, allowJs: true, checkJs: true, declaration: false, sourceMap: false },
    include: ["*.mts", "*.mjs"],
  };
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify(config));
  const run = spawnSync(process.execPath, [tsc, "-p", join(dir, "tsconfig.json"), "--pretty", "false"], { encoding: "utf8", cwd: dir });
  if (run.status === 0) return [];
  const errors = run.stdout.split("\n").flatMap((line) => {
    const match = /^([^(]+)\((\d+),\d+\): (error .*)$/.exec(line.trim());
    const snippet = match && byFile.get(match[1]!);
    return snippet ? [`${snippet.file}:${snippet.line + Number(match[2])}: ${match[3]}`] : [];
  });
  return errors.length > 0 ? errors : [`tsc failed: ${run.stdout}${run.stderr}`];
}
