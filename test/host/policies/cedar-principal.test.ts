// The principal of a Cedar request is the agent the call came from: `toolgate hook <agent>` and
// serve's `/v1/hooks/<agent>` name it (the dialect's name), with or without a session id in the
// agent's input, so a policy on `principal == Agent::"claude-code"` decides Claude Code's calls and
// no other agent's.
import { afterAll, expect, it, vi } from "vitest";
import { parseAnswer, runHook } from "../../helpers/hook-harness.js";
import { makeTempDir, removeTempDirs, writeFiles } from "../../helpers/cli-harness.js";
import { post, startServe } from "../../helpers/serve-harness.js";

vi.setConfig({ testTimeout: 60_000 });
afterAll(removeTempDirs);

const policies = `@id("claude-no-write")
@message("Claude Code does not write here")
forbid(principal == Agent::"claude-code", action, resource)
  when { context.args has file_path && context.args.file_path like "*.lock" };

@id("agent-in-context")
@message("the context names the agent too")
forbid(principal, action, resource)
  when { context has agent && context.agent == "gemini-cli" && context.args has file_path && context.args.file_path like "*.gen" };
`;

function project(): string {
  const dir = makeTempDir("repo", "cedar-principal-");
  writeFiles(dir, {
    "toolgate.config.json": JSON.stringify({ hooks: { pre_tool_call: [{ type: "cedar", policies: "policies.cedar" }] } }),
    "policies.cedar": policies,
  });
  return dir;
}

const claudeInput = (dir: string, file_path: string, session?: string) => ({
  hook_event_name: "PreToolUse",
  ...(session === undefined ? {} : { session_id: session }),
  cwd: dir,
  tool_name: "Write",
  tool_input: { file_path, content: "x" },
});

const geminiInput = (dir: string, file_path: string) => ({
  hook_event_name: "BeforeTool",
  session_id: "g1",
  cwd: dir,
  tool_name: "write_file",
  tool_input: { file_path, content: "x" },
});

it('toolgate hook claude-code: a policy on principal == Agent::"claude-code" denies, with and without a session id', async () => {
  const dir = project();
  for (const session of ["s1", undefined]) {
    const denied = await runHook("claude-code", claudeInput(dir, "pnpm.lock", session), { cwd: dir });
    expect(denied.code, denied.stderr).toBe(2);
    expect(denied.stderr).toContain("Claude Code does not write here");
    const allowed = await runHook("claude-code", claudeInput(dir, "a.ts", session), { cwd: dir });
    expect(allowed.code, allowed.stderr).toBe(0);
  }
});

it("toolgate hook gemini-cli: the same policy leaves Gemini's call alone; a policy on context.agent reads its name", async () => {
  const dir = project();
  const lock = await runHook("gemini-cli", geminiInput(dir, "pnpm.lock"), { cwd: dir });
  expect(lock.code, lock.stderr).toBe(0);
  expect(parseAnswer(lock).decision).not.toBe("deny");
  const generated = await runHook("gemini-cli", geminiInput(dir, "out.gen"), { cwd: dir });
  expect(JSON.stringify(parseAnswer(generated))).toContain("the context names the agent too");
});

it("serve's /v1/hooks/claude-code names the agent as the hook command does", async () => {
  const dir = project();
  const served = await startServe(["--cwd", dir]);
  try {
    const denied = await post(`${served.url}/v1/hooks/claude-code`, claudeInput(dir, "pnpm.lock", "s1"));
    expect(JSON.stringify(denied.body)).toContain("Claude Code does not write here");
    const gemini = await post(`${served.url}/v1/hooks/gemini-cli`, geminiInput(dir, "pnpm.lock"));
    expect(JSON.stringify(gemini.body)).not.toContain("Claude Code does not write here");
  } finally {
    await served.stop();
  }
});
