import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir, parseJsonLines, removeTempDirs, repoRoot, runCli, writeFiles } from "../../helpers/cli-harness.js";
import { parseAnswer, runHook } from "../../helpers/hook-harness.js";
import { post, startServe } from "../../helpers/serve-harness.js";
import { findRedisServer, missingRedisReason, startRedisServer, type RedisServer } from "./helpers/redis-server.js";

// The real CLI, one process per invocation, sharing one store through the project's config, as
// `toolgate hook` runs: one process per hook event, remembering nothing itself. Each case runs on
// store "file" and, when `redis-server` is installed, on a private Redis.

const hasRedis = findRedisServer() !== undefined;
if (!hasRedis) console.warn(`\n*** test/host/store/cli-processes.test.ts: the Redis cases are ${missingRedisReason}\n`);

let redis: RedisServer | undefined;
beforeAll(async () => {
  if (hasRedis) redis = await startRedisServer();
});
afterAll(async () => {
  await redis?.stop();
  removeTempDirs();
});

const stores: [name: string, setting: () => string][] = [["file", () => "file"]];
if (hasRedis) stores.push(["redis", () => redis!.url]);

const pluginPath = (name: string) => JSON.stringify(join(repoRoot, `plugins/${name}/src/index.ts`));

/** A project whose config names `store`, the plugins and maybe a session; `extra` files are written beside it. */
function project(store: string, plugins: string, extra: Record<string, string> = {}, session?: string): string {
  const cwd = makeTempDir("os", "store-cli-");
  const sessionEntry = session === undefined ? "" : `session: { id: ${JSON.stringify(session)} }, `;
  // These tests count across processes; the hook's deadlines are not what they test. Generous ones, so
  // that a loaded machine (which starved a hook's thread past the default 5 s + 1 s) cannot deny a call.
  writeFiles(cwd, {
    "toolgate.config.mjs": `export default { store: ${JSON.stringify(store)}, ${sessionEntry}hookTimeoutMs: 60000, plugins: [${plugins}] };`,
    ...extra,
  });
  return cwd;
}

type ClaudeEvent = "PreToolUse" | "PostToolUse" | "PostToolUseFailure";

/** One Claude Code hook event in its own `toolgate hook claude-code` process; the pre-tool decision, if any. */
async function hookEvent(cwd: string, session: string, event: ClaudeEvent, id: string, tool = "Bash"): Promise<string> {
  const input: Record<string, unknown> = {
    session_id: session,
    transcript_path: join(cwd, "transcript.jsonl"),
    cwd,
    hook_event_name: event,
    tool_name: tool,
    tool_input: { command: `echo ${id}` },
    tool_use_id: id,
  };
  if (event === "PostToolUse") input.tool_response = { stdout: id, stderr: "", interrupted: false };
  if (event === "PostToolUseFailure") input.error = "Exit code 1";
  const run = await runHook("claude-code", input, { cwd, env: { CLAUDE_PROJECT_DIR: cwd, TOOLGATE_HOOK_TIMEOUT_MS: "120000" } });
  const answer = parseAnswer(run);
  const output = answer.hookSpecificOutput as { permissionDecision?: string; permissionDecisionReason?: string } | undefined;
  // A deny exits with code 2, Claude Code's block (the reason on stderr); every other answer with 0.
  expect(run.code).toBe(output?.permissionDecision === "deny" ? 2 : 0);
  if (output?.permissionDecision === "deny") return `deny: ${output.permissionDecisionReason}`;
  return output?.permissionDecision ?? "no opinion";
}

const pre = (cwd: string, session: string, id: string, tool?: string) => hookEvent(cwd, session, "PreToolUse", id, tool);

describe.each(stores)("toolgate hook on store %s", (_, setting) => {
  it("six concurrent hook processes, one per tool call, against rate-limit max 3: exactly 3 allowed", async () => {
    const cwd = project(setting(), `[${pluginPath("rate-limit")}, { max: 3 }]`);
    const session = randomUUID();
    const decisions = await Promise.all(Array.from({ length: 6 }, (_, n) => pre(cwd, session, `toolu_${n}`)));
    expect(decisions.filter((decision) => decision === "no opinion")).toHaveLength(3);
    expect(decisions.filter((decision) => decision.startsWith('deny: Tool call blocked by plugin "rate-limit": rate limit:'))).toHaveLength(3);
  }, 120_000);

  it("a budget reservation made in the PreToolUse process is settled by the PostToolUse one, released when blocked, and when its end never comes", async () => {
    // Every Bash command that says "forbidden" is blocked by another plugin, before the budget counts it.
    const guard = `export default { name: "guard", hooks: { pre_tool_call: (call) => String(call.args.command).includes("forbidden") ? { action: "block", message: "not this one" } : undefined } };`;
    // Long enough for t4 and t5, two hook processes, to answer before t4's time to live passes, even on a
    // loaded machine where each takes seconds to start.
    const pendingTtlMs = 20_000;
    const cwd = project(setting(), `[${pluginPath("budget")}, { limit: 2, pendingTtlMs: ${pendingTtlMs} }]`, { "plugins/guard.mjs": guard });
    const session = randomUUID();
    const allowed = "no opinion";
    const exhausted = /^deny: Tool call blocked by plugin "budget": budget: 2 of 2 calls used/;

    expect(await pre(cwd, session, "t1")).toBe(allowed);
    expect(await hookEvent(cwd, session, "PostToolUse", "t1")).toBe("no opinion"); // t1 committed: 1 used
    expect(await pre(cwd, session, "t2")).toBe(allowed);
    expect(await hookEvent(cwd, session, "PostToolUseFailure", "t2")).toBe("no opinion"); // t2 failed: released
    expect(await pre(cwd, session, "t3-forbidden")).toBe('deny: Tool call blocked by plugin "guard": not this one'); // released there
    const t4At = Date.now();
    expect(await pre(cwd, session, "t4")).toBe(allowed); // 2 used: t1 and t4; t2 and t3 were given back
    expect(await pre(cwd, session, "t5")).toMatch(exhausted);
    // t4's end never comes (the agent stopped): once its time to live has passed it is released; t1 stays.
    // t4 reserved before it answered, so before t5 started: a time to live after t5's answer is past t4's.
    expect(Date.now() - t4At).toBeLessThan(pendingTtlMs);
    await new Promise((resolve) => setTimeout(resolve, pendingTtlMs + 200));
    expect(await pre(cwd, session, "t6")).toBe(allowed);
    expect(await pre(cwd, session, "t7")).toMatch(exhausted);
  }, 180_000);

  it("toolgate run (a dry run) decides on the shared budget and uses none of it", async () => {
    // `toolgate run` takes the session from the config; the hook, from the agent's input: the same one.
    const session = randomUUID();
    const calls = ["d1", "d2", "d3", "d4"].map((id) => JSON.stringify({ id, name: "Bash", args: {} })).join("\n");
    const cwd = project(setting(), `[${pluginPath("budget")}, { limit: 3 }]`, { "calls.jsonl": calls }, session);
    expect(await pre(cwd, session, "real-1")).toBe("no opinion");
    const dryRun = async () => {
      const { code, stdout, stderr } = await runCli(["run", join(cwd, "calls.jsonl"), "--cwd", cwd, "--json"]);
      expect(stderr).toBe("");
      expect(code).toBe(0);
      return parseJsonLines(stdout).map((line) => (line as { verdict: { action: string } }).verdict.action);
    };
    expect(await dryRun()).toEqual(["allow", "allow", "block", "block"]); // 1 used for real
    expect(await dryRun()).toEqual(["allow", "allow", "block", "block"]); // the first dry run used nothing
    expect(await pre(cwd, session, "real-2")).toBe("no opinion");
    expect(await pre(cwd, session, "real-3")).toBe("no opinion");
    expect(await pre(cwd, session, "real-4")).toMatch(/^deny: Tool call blocked by plugin "budget"/);
  }, 120_000);
});

describe.skipIf(!hasRedis)("toolgate serve replicas on one Redis", () => {
  it("two replicas × 500 concurrent PreToolUse requests against rate-limit max 100: exactly 100 allowed", async () => {
    // A server's plugins see its configured session, not the agent's session_id: the replicas share one.
    const session = randomUUID();
    const cwd = project(redis?.url ?? "", `[${pluginPath("rate-limit")}, { max: 100, windowMs: 600000 }]`, {}, session);
    const replicas = await Promise.all([startServe(["--cwd", cwd]), startServe(["--cwd", cwd])]);
    try {
      const request = (replica: number, n: number) =>
        post(`${replicas[replica]!.url}/v1/hooks/claude-code`, {
          session_id: session,
          transcript_path: join(cwd, "transcript.jsonl"),
          cwd,
          hook_event_name: "PreToolUse",
          tool_name: "Bash",
          tool_input: { command: `echo ${n}` },
          tool_use_id: `toolu_${replica}_${n}`,
        });
      const answers = await Promise.all(Array.from({ length: 1000 }, (_, n) => request(n % 2, n)));
      expect(answers.every((answer) => answer.status === 200)).toBe(true);
      const denied = answers.filter((answer) => answer.body.hookSpecificOutput?.permissionDecision === "deny");
      expect(1000 - denied.length).toBe(100);
      expect(denied[0]!.body.hookSpecificOutput.permissionDecisionReason).toMatch(/rate limit: "Bash" may be called 100 times per 10min/);
    } finally {
      await Promise.all(replicas.map((replica) => replica.stop()));
    }
  }, 120_000);
});
