// serve's /v1/check names the agent in the call's session when the body's `agent` does, as
// `toolgate hook <agent>` and /v1/hooks/<agent> do: a plugin reads `ctx.session.agent`, a Cedar
// policy sees the agent as its principal.
import { afterAll, describe, expect, it, vi } from "vitest";
import { makeTempDir, removeTempDirs, writeFiles } from "../../helpers/cli-harness.js";
import { post, startServe, type Served } from "../../helpers/serve-harness.js";

vi.setConfig({ testTimeout: 60_000 });

const servers: Served[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  removeTempDirs();
});

/** `whoami` is blocked with the session's agent and id as the message, so the answer shows what the plugin saw. */
const whoamiPlugin = `
export default {
  name: "whoami",
  hooks: {
    pre_tool_call(call, ctx) {
      if (call.name === "whoami") return { action: "block", message: JSON.stringify({ agent: ctx.session.agent ?? null, id: ctx.session.id ?? null }) };
    },
  },
};
`;

const cedarPolicy = `@id("claude-no-lock")
@message("Claude Code does not write lock files")
forbid(principal == Agent::"claude-code", action, resource)
  when { context.args has file_path && context.args.file_path like "*.lock" };
`;

async function serve(): Promise<Served> {
  const dir = makeTempDir("repo", "serve-agent-");
  writeFiles(dir, {
    "plugins/whoami.ts": whoamiPlugin,
    "toolgate.config.json": JSON.stringify({ hooks: { pre_tool_call: [{ type: "cedar", policies: "policies.cedar" }] } }),
    "policies.cedar": cedarPolicy,
  });
  const served = await startServe(["--cwd", dir]);
  servers.push(served);
  return served;
}

const whoami = async (url: string, body: Record<string, unknown>) => {
  const answer = await post(`${url}/v1/check`, { call: { id: "c1", name: "whoami", args: {} }, ...body });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return JSON.parse(answer.body.verdict.message as string) as { agent: string | null; id: string | null };
};

describe("serve /v1/check with an agent", () => {
  it("sets ctx.session.agent to the agent's name, with or without a session, over a session's own agent", async () => {
    const { url } = await serve();
    expect(await whoami(url, { agent: "claude-code" })).toMatchObject({ agent: "claude-code" });
    expect(await whoami(url, { agent: "gemini-cli", session: { id: "s1" } })).toEqual({ agent: "gemini-cli", id: "s1" });
    expect(await whoami(url, { agent: "codex", session: { id: "s2", agent: "someone-else" } })).toEqual({ agent: "codex", id: "s2" });
    // Without `agent` the session stands as given, and no agent is made up.
    expect(await whoami(url, { session: { id: "s3", agent: "my-app" } })).toEqual({ agent: "my-app", id: "s3" });
    expect(await whoami(url, {})).toMatchObject({ agent: null });
  });

  it("decides a Cedar policy on the principal as /v1/hooks/claude-code does", async () => {
    const { url } = await serve();
    const write = (body: Record<string, unknown>) =>
      post(`${url}/v1/check`, { call: { id: "c1", name: "Write", args: { file_path: "pnpm.lock", content: "x" } }, ...body });
    expect((await write({ agent: "claude-code" })).body.verdict).toMatchObject({ action: "block", message: "Claude Code does not write lock files" });
    expect((await write({ agent: "gemini-cli" })).body.verdict).toMatchObject({ action: "allow" });
    expect((await write({})).body.verdict).toMatchObject({ action: "allow" });
    const hook = await post(`${url}/v1/hooks/claude-code`, {
      session_id: "s",
      hook_event_name: "PreToolUse",
      tool_name: "Write",
      tool_input: { file_path: "pnpm.lock", content: "x" },
      tool_use_id: "t",
    });
    expect(hook.body.hookSpecificOutput).toMatchObject({ permissionDecision: "deny" });
  });

  it("/v1/hooks/<agent> names the agent without a session id in the hook input too", async () => {
    const { url } = await serve();
    const input = { hook_event_name: "PreToolUse", tool_name: "whoami", tool_input: {}, tool_use_id: "t" };
    const answer = await post(`${url}/v1/hooks/claude-code`, input);
    const reason = (answer.body.hookSpecificOutput as { permissionDecisionReason: string }).permissionDecisionReason;
    expect(reason).toContain('"agent":"claude-code"');
    const withSession = await post(`${url}/v1/hooks/claude-code`, { ...input, session_id: "s9" });
    expect((withSession.body.hookSpecificOutput as { permissionDecisionReason: string }).permissionDecisionReason).toContain(
      '{"agent":"claude-code","id":"s9"}',
    );
  });

  it("still refuses a session that is not an object, with the host's message", async () => {
    const { url } = await serve();
    const answer = await post(`${url}/v1/check`, { call: { id: "c1", name: "whoami", args: {} }, agent: "claude-code", session: "s1" });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatch(/session/);
  });
});
