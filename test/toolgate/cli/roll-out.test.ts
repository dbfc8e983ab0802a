// docs/policies/roll-out.md, run as a reader would: its config files and fixtures as written, its shell
// blocks line by line in a real git repository (`npx toolgate` is the workspace's CLI, installed into the
// project's node_modules/.bin), and the sessions it talks of recorded through real `toolgate hook
// claude-code` processes. The diff it prints is the page's, and `--shadow` lists the calls it shows.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installToolgateBin, parseAnswer, runHook } from "../../helpers/hook-harness.js";
import { makeTempDir, removeTempDirs, repoRoot, writeFiles } from "../../helpers/cli-harness.js";
import { snippetsOf } from "../../docs/doc-snippets.js";

const page = "docs/policies/roll-out.md";
const snippets = snippetsOf(repoRoot, page);
const shellBlocks = snippets.filter((snippet) => snippet.lang === "sh").map((snippet) => snippet.code);
const outputs = snippets.filter((snippet) => snippet.lang === "text").map((snippet) => snippet.code);

/** The page's YAML block whose first line is `# <heading>`, and the file it names. */
function file(heading: string): [string, string] {
  const block = snippets.find((snippet) => snippet.lang === "yaml" && snippet.code.startsWith(`# ${heading}\n`));
  if (block === undefined) throw new Error(`${page} has no yaml block starting "# ${heading}"`);
  return [heading.split(",")[0]!, block.code];
}

const author = { GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@example.com", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@example.com" };

interface LineRun {
  line: string;
  code: number | null;
  stdout: string;
  stderr: string;
}

let dir: string;
function sh(line: string): LineRun {
  const command = line.replace(/\bnpx toolgate\b/g, "toolgate");
  const env = { ...process.env, ...author, PATH: `${join(dir, "node_modules/.bin")}:${process.env.PATH}` };
  const run = spawnSync("sh", ["-c", command], { cwd: dir, env, encoding: "utf8", timeout: 60_000 });
  return { line, code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** Every line of the page's `index`th shell block, in order. */
function runBlock(index: number): LineRun[] {
  const block = shellBlocks[index];
  if (block === undefined) throw new Error(`${page} has no shell block ${index}`);
  return block
    .split("\n")
    .filter((line) => line.trim() !== "" && !line.trim().startsWith("#"))
    .map(sh);
}

const ok = (runs: LineRun[]) => runs.map(({ line, code, stderr }) => ({ line, code, ...(code === 0 ? {} : { stderr }) }));
const allOk = (runs: LineRun[]) => runs.map(({ line }) => ({ line, code: 0 }));

/** One agent session: each command as Claude Code's Bash, through `toolgate hook claude-code`, one after another. */
async function session(id: string, commands: readonly string[]): Promise<number[]> {
  const codes: number[] = [];
  for (const [index, command] of commands.entries()) {
    const input = {
      hook_event_name: "PreToolUse",
      session_id: id,
      transcript_path: "",
      cwd: dir,
      tool_name: "Bash",
      tool_input: { command },
      tool_use_id: `${id}-${index}`,
    };
    const run = await runHook("claude-code", input, { cwd: dir });
    parseAnswer(run);
    codes.push(run.code ?? -1);
  }
  return codes;
}

/** The commit a diff names is this run's own. */
const sameCommit = (text: string) => text.replace(/\(([0-9a-f]{12})\)/g, "(<commit>)").trimEnd();

beforeAll(() => {
  dir = makeTempDir("os", "roll-out-");
  installToolgateBin(dir);
  writeFiles(dir, Object.fromEntries([file("toolgate.config.yaml, on main"), file("toolgate.tests/basics.yaml"), [".gitignore", "node_modules\n"]]));
  for (const args of [
    ["init", "-q", "-b", "main"],
    ["add", "-A"],
    ["commit", "-qm", "policy"],
  ]) {
    const run = spawnSync("git", args, { cwd: dir, env: { ...process.env, ...author }, encoding: "utf8" });
    if (run.status !== 0) throw new Error(`git ${args.join(" ")}: ${run.stderr}`);
  }
});
afterAll(removeTempDirs);

describe(`${page}, step by step`, { timeout: 180_000 }, () => {
  it("has the blocks the steps run", () => {
    expect(shellBlocks).toHaveLength(5);
    expect(outputs).toHaveLength(2);
  });

  it("Monday: a session recorded under main's policy (only rm -rf / blocked)", async () => {
    const codes = await session("monday", ["git status", "npm test", "git push --force origin main", "rm -rf /", "npm publish", "git push origin feature"]);
    expect(codes).toEqual([0, 0, 0, 2, 0, 0]);
  });

  it("1. on a branch, the rules and their cases: both fixture runs pass", () => {
    expect(sh("git checkout -q -b no-force-push").code).toBe(0);
    writeFiles(dir, Object.fromEntries([file("toolgate.config.yaml, on the branch"), file("policy-tests/release.yaml")]));
    const runs = runBlock(0);
    expect(ok(runs)).toEqual(allOk(runs));
    expect(runs[1]!.stdout).toContain("3 cases: 3 passed, 0 failed");
  });

  it("2. the diff over Monday's session is the page's, and exits 1", () => {
    const [diff] = runBlock(1);
    expect(diff!.code, diff!.stderr).toBe(1);
    expect(sameCommit(diff!.stdout)).toBe(sameCommit(outputs[0]!));
  });

  it("3. in shadow: the new rules' cases fail against it (as the page says), the commit goes in", () => {
    writeFiles(dir, Object.fromEntries([file("toolgate.config.yaml, in shadow")]));
    const cases = sh("npx toolgate test policy-tests/release.yaml");
    expect(cases.code).toBe(1);
    expect(cases.stdout).toContain("got:      allow by nobody");
    const runs = runBlock(2);
    expect(ok(runs)).toEqual(allOk(runs));
  });

  it("3. Tuesday: every call goes through; --shadow lists the page's two calls and what the rules would have done", async () => {
    expect(await session("tuesday", ["git status", "git push -f origin main", "npm publish --tag next", "git push origin feature"])).toEqual([0, 0, 0, 0]);
    const [listed] = runBlock(3);
    expect(listed!.code, listed!.stderr).toBe(0);
    const withoutTime = (text: string) =>
      text
        .trimEnd()
        .split("\n")
        .map((line) => line.replace(/^\S+/, "<time>"));
    expect(withoutTime(listed!.stdout)).toEqual(withoutTime(outputs[1]!));
  });

  it("4. enforced: every case passes, and the diff over Tuesday lists the calls --shadow did, allowed by --allow-changes", () => {
    writeFiles(dir, Object.fromEntries([file("toolgate.config.yaml, on the branch")]));
    const runs = runBlock(4);
    expect(ok(runs)).toEqual(allOk(runs));
    expect(runs[1]!.stdout).toContain("5 cases: 5 passed, 0 failed");
    const diff = runs[3]!.stdout;
    const changed = [...diff.matchAll(/^ {2}tuesday\.jsonl:\d+ {2}Bash \{"command":"([^"]+)"\} {2}\(allowed by --allow-changes\)$/gm)].map((match) => match[1]);
    const shadowed = [...outputs[1]!.matchAll(/ALLOW {2}Bash (.+?) {2}- {2}\[shadow\]/g)].map((match) => match[1]);
    expect(changed.sort()).toEqual(shadowed.sort());
    expect(diff).toContain("2 calls changed (2 allowed by --allow-changes)");
  });
});
