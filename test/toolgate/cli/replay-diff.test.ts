import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHost } from "@toolgate/host";
import { startCli } from "../decisions/records.js";
import { makeTempDir, removeTempDirs, repoRoot, runCli, writeFiles } from "../../helpers/cli-harness.js";

afterAll(removeTempDirs);

// A recorded Claude Code session (one record without arguments, one malformed) and two policies:
// base.config.mjs (the old guard in base-plugins/, no sudo) and toolgate.config.mjs (the new guard in plugins/, no curl).
const fixture = join(repoRoot, "test/fixtures/replay-diff");

interface DiffJson {
  base: string;
  head: string;
  records: number;
  compared: number;
  changed: number;
  notAllowed: number;
  groups: { from: string; to: string; count: number; calls: { where: string; allowed: boolean; base: { verdict: string }; head: { verdict: string } }[] }[];
  notReplayed: { where: string; reason: string; message: string }[];
}

interface ReplayJson {
  records: number;
  replayed: number;
  changed: number;
  calls: { where: string; recorded: { verdict: string }; today: { verdict: string; source?: { kind: string; name: string } }; changed: boolean }[];
  notReplayed: { where: string; reason: string; message: string }[];
}

const session = (lines: readonly object[]) => `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`;

function record(callId: string, tool: string, args: Record<string, unknown> | undefined, verdict = "allow") {
  return {
    v: 1,
    time: "2026-11-20T10:00:00.000Z",
    surface: "hook:claude-code",
    session: "s-1",
    callId,
    tool,
    kind: tool === "Bash" ? "shell" : "function",
    verdict,
    participants: [],
    argsDigest: "sha256:0",
    ...(args === undefined ? {} : { args }),
    policy: "sha256:0",
    ms: 1,
  };
}

describe("toolgate diff over a recorded session", () => {
  it("prints the calls whose verdict or decider changed, grouped, with counts, and exits 1 (golden)", async () => {
    const { code, stdout, stderr } = await runCli(["diff", "--base", "base.config.mjs", "decisions.jsonl"], { cwd: fixture });

    expect(stderr).toBe("");
    expect(stdout).toBe(readFileSync(join(fixture, "diff.golden.txt"), "utf8"));
    expect(code).toBe(1);
    // The fixture folder is the project: nothing was written into it (no .toolgate/, no log, no store).
    expect(existsSync(join(fixture, ".toolgate"))).toBe(false);
  });

  it("is the example docs/testing-policy.md shows", () => {
    const golden = readFileSync(join(fixture, "diff.golden.txt"), "utf8");
    expect(readFileSync(join(repoRoot, "docs/testing-policy.md"), "utf8")).toContain(
      `$ npx toolgate diff --base base.config.mjs decisions.jsonl\n${golden}\`\`\``,
    );
  });

  it("gives the same diff as JSON, each change marked allowed or not", async () => {
    const { code, stdout } = await runCli(["diff", "--base", "base.config.mjs", "decisions.jsonl", "--json", "--allow-changes", "guard"], { cwd: fixture });
    const report = JSON.parse(stdout) as DiffJson;

    expect(code).toBe(1);
    expect(report).toMatchObject({ base: "base.config.mjs", head: "working tree", records: 12, compared: 9, changed: 7 });
    expect(report.groups.map(({ from, to, count }) => `${from}->${to} ${count}`)).toEqual([
      "allow->modify 1",
      "allow->ask 1",
      "allow->block 3",
      "block->allow 1",
      "block->block 1",
    ]);
    // "guard" allows what the guard decides under either policy; the curl rule, the sudo rule and the rewrite (no decider) stay.
    const notAllowed = report.groups.flatMap((group) => group.calls.filter((call) => !call.allowed).map((call) => call.where));
    expect(notAllowed).toEqual(["decisions.jsonl:8", "decisions.jsonl:4", "decisions.jsonl:3"]);
    expect(report.notAllowed).toBe(3);
    expect(report.notReplayed).toEqual([
      { where: "decisions.jsonl:9", reason: "no-args", message: "decisions.jsonl:9 carries only a digest of its arguments" },
      { where: "decisions.jsonl:11", reason: "invalid", message: "decisions.jsonl:11 is malformed: args must be a plain object" },
      { where: "decisions.jsonl:12", reason: "no-args", message: "decisions.jsonl:12 carries only a digest of its arguments" },
    ]);
  });

  it("exits 0 when --allow-changes names every change, by verdict change and by decider", async () => {
    const all = await runCli(
      ["diff", "--base", "base.config.mjs", "decisions.jsonl", "--allow-changes", "allow->*", "--allow-changes", "block->allow, rule:Bash:command=*sudo*"],
      {
        cwd: fixture,
      },
    );
    expect(all.code).toBe(0);
    expect(all.stdout).toContain("12 records: 9 decided under both policies, 7 calls changed (7 allowed by --allow-changes), 3 not replayed");

    const most = await runCli(["diff", "--base", "base.config.mjs", "decisions.jsonl", "--allow-changes", "allow->*,block->allow"], { cwd: fixture });
    expect(most.code).toBe(1);
    expect(most.stdout).toContain("7 calls changed (6 allowed by --allow-changes)");
  });

  it("refuses an --allow-changes entry that names no verdict, saying what it must be", async () => {
    const { code, stderr, stdout } = await runCli(["diff", "--base", "base.config.mjs", "decisions.jsonl", "--allow-changes", "alow->block"], { cwd: fixture });
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toContain('--allow-changes "alow->block": a verdict change is FROM->TO with FROM and TO each one of allow, modify, ask, block or *');
  });

  it("fails with exit 1 naming the file when the base config does not load, and prints no diff", async () => {
    const cwd = makeTempDir("os", "diff-broken-");
    writeFiles(cwd, {
      "broken.config.mjs": "export default { permissions: { deny: 42 } };",
      "toolgate.config.mjs": "export default {};",
      "session.jsonl": session([record("c1", "Bash", { command: "ls" })]),
    });
    const { code, stdout, stderr } = await runCli(["diff", "--base", "broken.config.mjs", "session.jsonl"], { cwd });

    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toMatch(/^error: base broken\.config\.mjs: broken\.config\.mjs \(\/[^)]*broken\.config\.mjs\) is invalid: .*permissions/);
  });

  it("fails with exit 1 naming the plugin when a plugin of the head policy does not load", async () => {
    const cwd = makeTempDir("os", "diff-plugin-");
    writeFiles(cwd, {
      "old.config.mjs": "export default { pluginsDir: false };",
      "plugins/broken.mjs": "export default { name: 'broken', hooks: { pre_tool_call: 'not a function' } };",
      "session.jsonl": session([record("c1", "Bash", { command: "ls" })]),
    });
    const { code, stdout, stderr } = await runCli(["diff", "--base", "old.config.mjs", "session.jsonl"], { cwd });

    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toContain(
      `error: head working tree: a plugin failed to load: broken: ${join(cwd, "plugins/broken.mjs")}: not a valid plugin: hooks.pre_tool_call must be a function`,
    );
    // The host's own warnings say which policy they come from.
    expect(stderr).toContain('[toolgate head] error: plugin "broken" failed to load');
  });

  it("says when --base is neither a file nor a commit (exit 2)", async () => {
    const cwd = makeTempDir("os", "diff-ref-");
    writeFiles(cwd, { "session.jsonl": session([record("c1", "Bash", { command: "ls" })]) });
    const { code, stdout, stderr } = await runCli(["diff", "--base", "no-such.config.mjs", "session.jsonl"], { cwd });

    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toContain(`error: --base no-such.config.mjs: no file and no git commit by that name in ${cwd} (git: fatal: not a git repository`);
  });

  it("does not say 'no changes' when no call can be decided: records without arguments are bad input (exit 2)", async () => {
    const cwd = makeTempDir("os", "diff-digest-");
    writeFiles(cwd, {
      "old.config.mjs": "export default {};",
      "session.jsonl": session([record("c1", "Bash", undefined), record("c2", "Bash", undefined)]),
    });
    const { code, stdout, stderr } = await runCli(["diff", "--base", "old.config.mjs", "session.jsonl"], { cwd });

    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toContain(
      'no call in session.jsonl can be decided again: 2 line(s) not replayable (the records carry only a digest of their arguments: record them with decisions: { args: "full" })',
    );
  });
});

function git(cwd: string, ...args: string[]): string {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_AUTHOR_NAME: "t",
    GIT_AUTHOR_EMAIL: "t@example.com",
    GIT_COMMITTER_NAME: "t",
    GIT_COMMITTER_EMAIL: "t@example.com",
  };
  for (const name of ["GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"]) delete env[name];
  const result = spawnSync("git", args, { cwd, env, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`git ${args.join(" ")}: ${result.stderr}`);
  return result.stdout;
}

const gitAvailable = spawnSync("git", ["--version"]).status === 0;

// The config imports @toolgate/host: the committed policy must resolve the project's node_modules from its copy.
const configAt = (deny: string) =>
  `import { defineConfig } from "@toolgate/host";\nexport default defineConfig({ permissions: { deny: [${JSON.stringify(deny)}] } });\n`;
const guardAt = (word: string) =>
  `export default { name: "guard", hooks: { pre_tool_call: (call) => String(call.args.command).includes(${JSON.stringify(word)}) ? { action: "block", message: "no ${word}" } : undefined } };\n`;

describe.skipIf(!gitAvailable)("toolgate diff against a git ref", () => {
  let cwd: string;
  let tmp: string;

  beforeAll(() => {
    // Inside the repository (test/.tmp), so the project's packages resolve as a user's would; its own git repository.
    const repo = makeTempDir("repo", "diff-git-");
    cwd = join(repo, "project");
    tmp = makeTempDir("os", "diff-tmpdir-");
    writeFiles(cwd, {
      "toolgate.config.ts": configAt("Bash:command=*sudo*"),
      // The committed guard takes its word from a package only the project's own node_modules holds (not committed).
      "plugins/guard.mjs": `import { word } from "policy-words";\n${guardAt("deploy").replace('"deploy"', "word")}`,
      ".gitignore": "node_modules/\n",
      "node_modules/policy-words/package.json": JSON.stringify({ name: "policy-words", type: "module", exports: "./index.js" }),
      "node_modules/policy-words/index.js": 'export const word = "deploy";\n',
      "session.jsonl": session([
        record("c1", "Bash", { command: "ls" }),
        record("c2", "Bash", { command: "sudo ls" }, "block"),
        record("c3", "Bash", { command: "curl x" }),
        record("c4", "Bash", { command: "rm -rf build" }),
      ]),
    });
    git(repo, "init", "-q");
    git(repo, "add", "project");
    git(repo, "commit", "-qm", "policy v1");
    // The working tree's policy, not committed: curl denied instead of sudo, the guard refuses rm.
    writeFiles(cwd, { "toolgate.config.ts": configAt("Bash:command=*curl*"), "plugins/guard.mjs": guardAt("rm -rf") });
  });

  const policyCopies = () => readdirSync(tmp).filter((name) => name.startsWith("toolgate-policy-"));
  const diff = (...args: string[]) => runCli(["diff", ...args, "session.jsonl", "--json"], { cwd, env: { TMPDIR: tmp } });
  const changesOf = (stdout: string) =>
    (JSON.parse(stdout) as DiffJson).groups.flatMap((group) => group.calls.map((call) => `${call.where} ${call.base.verdict}->${call.head.verdict}`));

  it("decides under the policy as committed at the ref (config and plugins), head the working tree, touching neither", async () => {
    const status = git(cwd, "status", "--porcelain");
    const { code, stdout, stderr } = await diff("--base", "HEAD");

    expect(stderr).toBe("");
    expect(code).toBe(1);
    expect((JSON.parse(stdout) as DiffJson).base).toMatch(/^HEAD \([0-9a-f]{12}\)$/);
    expect(changesOf(stdout)).toEqual(["session.jsonl:3 allow->block", "session.jsonl:4 allow->block", "session.jsonl:2 block->allow"]);
    expect(git(cwd, "status", "--porcelain")).toBe(status);
    expect(readFileSync(join(cwd, "plugins/guard.mjs"), "utf8")).toBe(guardAt("rm -rf"));
    // The copy of the committed policy is gone.
    expect(policyCopies()).toEqual([]);
  });

  it("compares two refs, and finds nothing between a ref and itself", async () => {
    git(cwd, "add", ".");
    git(cwd, "commit", "-qm", "policy v2");

    const between = await diff("--base", "HEAD~1", "--head", "HEAD");
    expect(between.code).toBe(1);
    expect(changesOf(between.stdout)).toEqual(["session.jsonl:3 allow->block", "session.jsonl:4 allow->block", "session.jsonl:2 block->allow"]);

    const same = await diff("--base", "HEAD", "--head", "HEAD");
    expect(same.code).toBe(0);
    expect(JSON.parse(same.stdout)).toMatchObject({ compared: 4, changed: 0, groups: [] });
    expect(policyCopies()).toEqual([]);
  });

  it("names the committed file (as <ref>:path) when the config at the ref does not load, and exits 1", async () => {
    writeFiles(cwd, { "toolgate.config.ts": "export default { hookTimeoutMs: 'soon' };\n" });
    git(cwd, "commit", "-qam", "broken policy");
    writeFiles(cwd, { "toolgate.config.ts": configAt("Bash:command=*curl*") });

    const { code, stdout, stderr } = await diff("--base", "HEAD");
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toMatch(/^error: base HEAD \([0-9a-f]{12}\): toolgate\.config\.ts \(HEAD:toolgate\.config\.ts\) is invalid: .*hookTimeoutMs/);
    expect(policyCopies()).toEqual([]);
  });

  it("says which ref is unknown (exit 2)", async () => {
    const { code, stderr } = await diff("--base", "no-such-branch");
    expect(code).toBe(2);
    expect(stderr).toBe(`error: --base no-such-branch: no file and no git commit by that name in ${cwd}\n`);
  });
});

describe("toolgate replay", () => {
  it("prints each record's verdict then and now, the lines it could not replay and why, and exits 0", async () => {
    const { code, stdout, stderr } = await runCli(["replay", "decisions.jsonl"], { cwd: fixture });

    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout).toContain('same     decisions.jsonl:1  Bash {"command":"ls -la"}  allow\n');
    expect(stdout).toContain(
      'CHANGED  decisions.jsonl:3  Bash {"command":"sudo apt-get install jq"}\n    recorded: block by rule Bash:command=*sudo*\n    today:    allow\n',
    );
    expect(stdout).toContain(
      'CHANGED  decisions.jsonl:6  Bash {"command":"sudo rm -rf /"}\n    recorded: block by rule Bash:command=*sudo*\n    today:    block by plugin guard: no recursive deletes\n',
    );
    expect(stdout).toContain(
      '  decisions.jsonl, 2 lines (9, 12): only a digest of the arguments was recorded (record them with decisions: { args: "full" })\n  decisions.jsonl:11 is malformed: args must be a plain object\n',
    );
    expect(stdout).toContain("12 records: 9 replayed (3 same, 6 changed), 3 not replayed (no tool was run, nothing was recorded)");
  });

  it("lists every call as JSON, and counts tool calls that are not records and lines that are not JSON", async () => {
    const cwd = makeTempDir("os", "replay-json-");
    writeFiles(cwd, {
      "plugins/guard.mjs": guardAt("rm -rf"),
      "a.jsonl": session([record("c1", "Bash", { command: "rm -rf build" }), { name: "Bash", args: { command: "ls" } }]),
      "b.jsonl": `${JSON.stringify(record("c2", "Bash", { command: "ls" }))}\n{not json\n`,
    });
    const { code, stdout } = await runCli(["replay", "a.jsonl", "b.jsonl", "--json"], { cwd });
    const report = JSON.parse(stdout) as ReplayJson;

    expect(code).toBe(0);
    expect(report).toMatchObject({ records: 4, replayed: 2, changed: 1 });
    expect(
      report.calls.map(({ where, recorded, today, changed }) => ({ where, recorded: recorded.verdict, today: today.verdict, by: today.source?.name, changed })),
    ).toEqual([
      { where: "a.jsonl:1", recorded: "allow", today: "block", by: "guard", changed: true },
      { where: "b.jsonl:1", recorded: "allow", today: "allow", by: undefined, changed: false },
    ]);
    expect(report.notReplayed.map(({ where, reason }) => `${where} ${reason}`)).toEqual(["b.jsonl:2 invalid", "a.jsonl:2 no-record"]);
    expect(report.notReplayed[0]!.message).toMatch(/^b\.jsonl:2 is not valid JSON: /);
  });

  it("exits 1 naming the config when today's policy does not load", async () => {
    const cwd = makeTempDir("os", "replay-broken-");
    writeFiles(cwd, { "toolgate.config.mjs": "export default { onPluginError: 'maybe' };", "s.jsonl": session([record("c1", "Bash", { command: "ls" })]) });
    const { code, stdout, stderr } = await runCli(["replay", "s.jsonl"], { cwd });
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toMatch(/^error: today's policy: toolgate\.config\.mjs \(.*\) is invalid: .*onPluginError/);
  });
});

describe("replay and diff write nothing", () => {
  it("leave the live decisions log and the store as they were, and count budgets from zero", async () => {
    const cwd = makeTempDir("os", "replay-live-");
    // A live project: records with arguments, a file store, and a plugin that counts every call in it.
    const counter = `export default (_options, api) => ({ name: "counter", hooks: { async pre_tool_call() {
      const calls = ((await api.store.get("calls")) ?? 0) + 1;
      await api.store.set("calls", calls);
      if (calls > 2) return { action: "block", message: "over budget: call " + calls };
    } } });`;
    writeFiles(cwd, {
      "toolgate.config.mjs": 'export default { store: "file", decisions: { args: "full" } };',
      "old.config.mjs": 'export default { store: "file", pluginsDir: false };',
      "plugins/counter.mjs": counter,
      ".toolgate/decisions.jsonl": session([1, 2, 3].map((index) => record(`c${index}`, "Bash", { command: `echo ${index}` }))),
    });
    // The live store has counted three calls already (a host of the project, as an agent's would be).
    const live = await createHost({ cwd, logger: false });
    for (const index of [1, 2, 3]) await live.checkToolCall({ id: `live-${index}`, name: "Bash", args: { command: "ls" } });
    await live.close();
    expect(readdirSync(join(cwd, ".toolgate/store"))).toEqual(["counter.json"]);
    const before = snapshotOf(join(cwd, ".toolgate"));

    const replay = await runCli(["replay", ".toolgate/decisions.jsonl", "--json"], { cwd });
    const diff = await runCli(["diff", "--base", "old.config.mjs", ".toolgate/decisions.jsonl", "--json"], { cwd });

    expect(replay.code).toBe(0);
    // The counter starts from an empty store of the replay's own, not the live one: the third call is over budget, as in a fresh session.
    expect((JSON.parse(replay.stdout) as ReplayJson).calls.map((call) => call.today.verdict)).toEqual(["allow", "allow", "block"]);
    expect(diff.code).toBe(1);
    expect((JSON.parse(diff.stdout) as DiffJson).changed).toBe(1);
    expect(snapshotOf(join(cwd, ".toolgate"))).toEqual(before);
  });
});

/** Every file under a folder with its content. */
function snapshotOf(folder: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true }))
    if (entry.isFile()) files[join(entry.parentPath, entry.name)] = readFileSync(join(entry.parentPath, entry.name), "utf8");
  return files;
}

describe.skipIf(!gitAvailable)("toolgate diff cut off part way", () => {
  it.each(["SIGINT", "SIGTERM"] as const)(
    "removes its copy of the committed policy on %s, and exits 128 + the signal's number",
    async (signal) => {
      const repo = makeTempDir("repo", "diff-cut-");
      const tmp = makeTempDir("os", "diff-cut-tmpdir-");
      // The committed policy stalls on the first call, so the diff is still running when the signal comes.
      writeFiles(repo, {
        "toolgate.config.json": JSON.stringify({ hookTimeoutMs: 120_000 }),
        "plugins/stall.mjs": 'export default { name: "stall", hooks: { pre_tool_call: () => new Promise(() => {}) } };\n',
        "session.jsonl": session([record("c1", "Bash", { command: "ls" })]),
      });
      git(repo, "init", "-q");
      git(repo, "add", ".");
      git(repo, "commit", "-qm", "stalling policy");
      const copies = () => readdirSync(tmp).filter((name) => name.startsWith("toolgate-policy-"));

      const cli = startCli(["diff", "--cwd", repo, "--base", "HEAD", join(repo, "session.jsonl")], { TMPDIR: tmp });
      for (const deadline = Date.now() + 30_000; copies().length === 0 && cli.child.exitCode === null && Date.now() < deadline; )
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(copies(), cli.stderr()).toHaveLength(1);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      cli.child.kill(signal);
      const code = await new Promise<number | null>((resolve) => cli.child.once("exit", (exitCode) => resolve(exitCode)));

      expect(code).toBe(signal === "SIGINT" ? 130 : 143);
      expect(copies()).toEqual([]);
    },
    60_000,
  );
});
