import { appendFileSync, renameSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { makeTempDir, parseJsonLines, removeTempDirs, runCli, writeFiles } from "../../helpers/cli-harness.js";
import { appendRecords, blocked, logOf, record, rotatedLogOf, runCliWithEnv, startCli } from "./records.js";

afterAll(removeTempDirs);

const lines = (text: string) => text.split("\n").filter((line) => line !== "");

/** A project whose log has rotated once: two records in decisions.1.jsonl, three in the live file. */
function projectWithHistory(): string {
  const dir = makeTempDir("os", "decisions-");
  appendRecords(
    rotatedLogOf(dir),
    record({ time: "2026-01-27T09:00:00.000Z", tool: "Read", callId: "r1" }),
    blocked("block-dangerous-shell", "rm -rf / deletes the root", { time: "2026-01-27T09:30:00.000Z", callId: "r2", session: "session-2" }),
  );
  appendRecords(
    logOf(dir),
    "not json at all",
    '{"v":2,"time":"2026-01-27T09:45:00.000Z","tool":"X","surface":"serve","verdict":"allow","participants":[]}',
    record({ time: "2026-01-27T10:00:00.000Z", tool: "mcp__github__create_issue", kind: "mcp", surface: "mcp-proxy", callId: "l1" }),
    record({
      time: "2026-01-27T10:05:00.000Z",
      verdict: "ask",
      callId: "l2",
      source: { kind: "rule", name: "bash:command=git push *" },
      participants: [{ kind: "rule", name: "bash:command=git push *", action: "ask", ms: 0.01 }],
    }),
    blocked("policy", "no", { time: "2026-01-27T10:10:00.000Z", tool: "Write", kind: "function", callId: "l3", surface: "serve" }),
  );
  // A writer in the middle of its line: never shown.
  appendFileSync(logOf(dir), '{"v":1,"time":"2026-01-27T10:11:00.000Z","tool":"Half"');
  return dir;
}

describe.concurrent("toolgate decisions", () => {
  const dir = projectWithHistory();

  it("prints the rotated records, then the live ones, one line each, skipping lines that are not records and a line still being written", async () => {
    const run = await runCli(["decisions", "--cwd", dir]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(lines(run.stdout)).toEqual([
      "2026-01-27T09:00:00.000Z  hook:claude-code  ALLOW  Read  -",
      "2026-01-27T09:30:00.000Z  hook:claude-code  BLOCK  Bash  plugin block-dangerous-shell: rm -rf / deletes the root",
      "2026-01-27T10:00:00.000Z  mcp-proxy         ALLOW  mcp__github__create_issue  -",
      "2026-01-27T10:05:00.000Z  hook:claude-code  ASK    Bash  rule bash:command=git push *",
      "2026-01-27T10:10:00.000Z  serve             BLOCK  Write  plugin policy: no",
    ]);
  });

  it("prints the records as JSON lines with --json, as they were written", async () => {
    const run = await runCli(["decisions", "--cwd", dir, "--json"]);
    const records = parseJsonLines(run.stdout) as Record<string, unknown>[];
    expect(records.map((entry) => entry.callId)).toEqual(["r1", "r2", "l1", "l2", "l3"]);
    expect(records[1]).toEqual(
      blocked("block-dangerous-shell", "rm -rf / deletes the root", { time: "2026-01-27T09:30:00.000Z", callId: "r2", session: "session-2" }),
    );
  });

  it.each([
    [["--tool", "mcp__*"], ["l1"]],
    [
      ["--tool", "B*"],
      ["r2", "l2"],
    ],
    [
      ["--verdict", "block"],
      ["r2", "l3"],
    ],
    [
      ["--verdict", "deny"],
      ["r2", "l3"],
    ],
    [["--source", "policy"], ["l3"]],
    [["--source", "rule:bash:command=git push *"], ["l2"]],
    [["--session", "session-2"], ["r2"]],
    [
      ["--since", "2026-01-27T10:05:00Z"],
      ["l2", "l3"],
    ],
    [["--verdict", "block", "--last", "1"], ["l3"]],
    [["--since", "1h"], []],
  ])("filters with %j", async (filter, callIds) => {
    const run = await runCli(["decisions", "--cwd", dir, "--json", ...filter]);
    if (callIds.length === 0) expect(run.stderr).toContain("matches the filters");
    else expect(run.stderr).toBe("");
    expect((parseJsonLines(run.stdout) as { callId: string }[]).map((entry) => entry.callId)).toEqual(callIds);
  });

  it("counts a duration for --since back from now", async () => {
    const project = makeTempDir("os", "decisions-since-");
    appendRecords(
      logOf(project),
      record({ callId: "old", time: new Date(Date.now() - 20 * 60_000).toISOString() }),
      record({ callId: "new", time: new Date().toISOString() }),
    );
    const run = await runCli(["decisions", "--cwd", project, "--json", "--since", "10m"]);
    expect((parseJsonLines(run.stdout) as { callId: string }[]).map((entry) => entry.callId)).toEqual(["new"]);
  });

  it.each([
    [["--verdict", "denied"], "error: --verdict denied: expected one of allow, ask, block (or deny, for block)\n"],
    [["--since", "yesterday"], "error: --since yesterday: expected a time (2026-11-27T10:00:00Z) or a duration (30s, 10m, 2h, 7d)\n"],
    [["--last", "-3"], "error: --last -3: expected a whole number of records\n"],
  ])("refuses %j as bad usage (exit 2)", async (filter, message) => {
    const run = await runCli(["decisions", "--cwd", dir, ...filter]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(message);
    expect(run.stdout).toBe("");
  });

  it("prints no record, successfully, when nothing has been recorded yet, and says on stderr where it looked", async () => {
    const empty = makeTempDir("os", "decisions-empty-");
    const run = await runCli(["decisions", "--cwd", empty, "--json"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(
      `no decisions recorded in ${join(empty, ".toolgate", "decisions.jsonl")} (nor in ${join(empty, ".toolgate", "decisions.1.jsonl")})`,
    );
  });

  it("says when records are there but none matches the filters", async () => {
    const run = await runCli(["decisions", "--cwd", dir, "--tool", "Nothing*"]);
    expect(run).toMatchObject({ code: 0, stdout: "" });
    expect(run.stderr).toMatch(/none of the 5 records in .*decisions\.jsonl matches the filters/);
  });

  it("shows what each call ran, from the record's summary, after the tool", async () => {
    const project = makeTempDir("os", "decisions-summary-");
    appendRecords(logOf(project), record({ summary: "npm test && git push origin main" }), record({ tool: "Read", summary: "src/a.ts" }));
    const run = await runCli(["decisions", "--cwd", project]);
    expect(lines(run.stdout).map((line) => line.split("  ").slice(2, 4).join("  "))).toEqual([
      "ALLOW  Bash npm test && git push origin main",
      "ALLOW  Read src/a.ts",
    ]);
  });

  it("reads the log the config names in decisions.log, relative to the config's folder", async () => {
    const project = makeTempDir("os", "decisions-config-");
    writeFiles(project, { "toolgate.config.json": JSON.stringify({ decisions: { log: "logs/calls.jsonl" } }) });
    appendRecords(join(project, "logs/calls.jsonl"), record({ callId: "configured" }));
    appendRecords(logOf(project), record({ callId: "default-place" }));
    const run = await runCli(["decisions", "--cwd", project, "--json"]);
    expect((parseJsonLines(run.stdout) as { callId: string }[]).map((entry) => entry.callId)).toEqual(["configured"]);
  });

  it("says so when the config turns records off (exit 1)", async () => {
    const project = makeTempDir("os", "decisions-off-");
    writeFiles(project, { "toolgate.config.json": JSON.stringify({ decisions: { log: false } }) });
    const run = await runCli(["decisions", "--cwd", project]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `error: ${join(project, "toolgate.config.json")} sets decisions.log to false, so no decisions are recorded: set it to a path, or read another log with --file\n`,
    );
  });

  it("reads another log with --file", async () => {
    const file = join(makeTempDir("os", "decisions-file-"), "elsewhere.jsonl");
    appendRecords(file, record({ callId: "elsewhere" }));
    const run = await runCli(["decisions", "--file", file, "--json"]);
    expect((parseJsonLines(run.stdout) as { callId: string }[]).map((entry) => entry.callId)).toEqual(["elsewhere"]);
  });
});

describe.concurrent("toolgate decisions on a terminal", () => {
  const dir = makeTempDir("os", "decisions-colour-");
  appendRecords(
    logOf(dir),
    blocked("evil\u001b[2J\u001b]0;owned\u0007", "line one\nforged line \u202eexe.txt", { tool: "Bash\r\u001b[31m" }),
    record({ callId: "ok" }),
  );

  it("escapes control characters from the file, so a record can neither forge a line nor drive the terminal", async () => {
    const run = await runCli(["decisions", "--cwd", dir]);
    expect(lines(run.stdout)).toEqual([
      "2026-01-27T10:00:00.000Z  hook:claude-code  BLOCK  Bash\\r\\x1b[31m  plugin evil\\x1b[2J\\x1b]0;owned\\x07: line one\\nforged line \\u202eexe.txt",
      "2026-01-27T10:00:00.000Z  hook:claude-code  ALLOW  Bash  -",
    ]);
    const json = await runCli(["decisions", "--cwd", dir, "--json"]);
    for (const character of ["\u001b", "\u202e", "\r"]) expect(json.stdout).not.toContain(character);
    expect((parseJsonLines(json.stdout)[0] as { tool: string }).tool).toBe("Bash\r\u001b[31m");
  });

  it("colours the verdict when FORCE_COLOR asks for it, and not when NO_COLOR is set or output is piped", async () => {
    const [forced, both, piped] = await Promise.all([
      runCliWithEnv(["decisions", "--cwd", dir], { FORCE_COLOR: "1" }),
      runCliWithEnv(["decisions", "--cwd", dir], { FORCE_COLOR: "1", NO_COLOR: "1" }),
      runCli(["decisions", "--cwd", dir]),
    ]);
    expect(forced.stdout).toContain("\u001b[31mBLOCK\u001b[39m");
    expect(forced.stdout).toContain("\u001b[32mALLOW\u001b[39m");
    expect(both.stdout).not.toContain("\u001b[");
    expect(piped.stdout).not.toContain("\u001b[3");
  });
});

describe("toolgate decisions --follow", () => {
  it("prints what is there, then each record as it is appended, across a rotation, none lost or repeated", async () => {
    const dir = makeTempDir("os", "decisions-follow-");
    const log = logOf(dir);
    appendRecords(log, record({ callId: "before" }));
    const follow = startCli(["decisions", "--cwd", dir, "--follow", "--json"]);
    try {
      await follow.waitFor(/"before"/);
      // A line written in two parts is printed once, whole.
      appendFileSync(log, JSON.stringify(record({ callId: "split" })).slice(0, 40));
      await new Promise((resolve) => setTimeout(resolve, 700));
      appendFileSync(log, `${JSON.stringify(record({ callId: "split" })).slice(40)}\n`);
      await follow.waitFor(/"split"/);
      // The writer rotates: a last record into the old file, rename, a new file.
      appendRecords(log, record({ callId: "last-before-rotation" }));
      renameSync(log, rotatedLogOf(dir));
      appendRecords(log, record({ callId: "first-after-rotation" }));
      await follow.waitFor(/"first-after-rotation"/);
      appendRecords(log, "garbage", blocked("policy", "no", { callId: "blocked-after" }));
      await follow.waitFor(/"blocked-after"/);
      const callIds = (parseJsonLines(follow.stdout()) as { callId: string }[]).map((entry) => entry.callId);
      expect(callIds).toEqual(["before", "split", "last-before-rotation", "first-after-rotation", "blocked-after"]);
    } finally {
      await follow.stop();
    }
    expect(follow.stderr()).toBe("");
  });

  it("waits for a log that does not exist yet, and applies the filters to what follows", async () => {
    const dir = makeTempDir("os", "decisions-follow-new-");
    const follow = startCli(["decisions", "--cwd", dir, "--follow", "--verdict", "block"]);
    try {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      appendRecords(logOf(dir), record({ callId: "allowed" }), blocked("policy", "not here", { callId: "denied" }));
      await follow.waitFor(/BLOCK {2}Bash {2}plugin policy: not here\n/);
      expect(follow.stdout()).not.toContain("ALLOW");
    } finally {
      await follow.stop();
    }
  });
});
