import { chmodSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { removeTempDirs, runCli, writeFiles } from "../../helpers/cli-harness.js";
import { fakeApiEnv, startFakeAnthropicApi, toolResults, type FakeAnthropicApi } from "../../../packages/claude-agent-sdk/src/fixtures/fake-messages-api.js";
import { agentEnv, e2ePolicyPlugin, e2eProject, runAgent, type E2ePlugins } from "../../helpers/e2e-harness.js";
import { startServe, type Served } from "../../helpers/serve-harness.js";
import { brokenPlugin, noisyPlugin } from "../../helpers/hook-harness.js";
import { installedTool } from "../../helpers/installed-tool.js";
import { realClientTest } from "../../helpers/real-client.js";

/**
 * The real Claude Code CLI (`@anthropic-ai/claude-code`, headless `-p`) against a fake Anthropic API on
 * 127.0.0.1, with its Bash tool gated by `toolgate hook claude-code` as `toolgate init` installs it.
 */

const claude = await installedTool("@anthropic-ai/claude-code", "2.1.328", "bin/claude.exe");

afterAll(removeTempDirs);

const policyPlugin = (dir: string) => e2ePolicyPlugin(dir, 'call.name + " " + call.args.command');

interface Session {
  api: FakeAnthropicApi;
  /** What each tool call sent back to the model, in order. */
  results: { text: string; isError: boolean }[];
  /** What the fake model said last, quoting every tool result it got. */
  finalText: string;
  /** Every command line that reached the shell Claude Code runs Bash commands in. */
  shellCommands: string;
  code: number | null;
  stderr: string;
}

/** A project with `plugins`, toolgate installed by `toolgate init claude-code`, and one headless Claude Code run issuing `commands`. */
async function runClaude(
  plugins: E2ePlugins,
  commands: readonly string[],
  setUp: (dir: string) => Promise<void> = installWithInit,
): Promise<Session & { dir: string }> {
  const { dir, home } = await e2eProject("claude-code", plugins, false);
  await setUp(dir);
  // A guard in front of bash: should the hook ever fail open, `rm -rf /` still never runs.
  writeFiles(home, {
    "bin/bash": `#!/bin/bash\ncase "$*" in *"rm -rf"*) echo "REFUSED $*" >> ${home}/shell.log; exit 97;; esac\necho "RAN $*" >> ${home}/shell.log\nexec /bin/bash "$@"\n`,
  });
  chmodSync(join(home, "bin/bash"), 0o755);

  let finalText = "";
  const api = await startFakeAnthropicApi((request) => {
    const results = toolResults(request);
    const next = commands[results.length];
    if (next !== undefined) return [{ type: "tool_use", name: "Bash", input: { command: next, description: "run a command" } }];
    finalText = `I got: ${results.map((result) => result.text).join(" || ")}`;
    return [{ type: "text", text: finalText }];
  });
  const shell = join(home, "bin/bash");
  const env = agentEnv(home, {
    SHELL: shell,
    CLAUDE_CODE_SHELL: shell,
    ...fakeApiEnv(api.url),
  });
  const args = ["-p", "run the commands", "--output-format", "json", "--allowedTools", "Bash", "--max-turns", String(commands.length + 2)];
  const { code, stderr } = await runAgent(claude, args, dir, env);
  await api.close();
  const last = api.requests.at(-1);
  return {
    dir,
    api,
    results: last ? toolResults(last).map(({ text, isError }) => ({ text, isError })) : [],
    finalText,
    shellCommands: existsSync(join(home, "shell.log")) ? readFileSync(join(home, "shell.log"), "utf8") : "",
    code,
    stderr,
  };
}

async function installWithInit(dir: string): Promise<void> {
  const init = await runCli(["init", "claude-code", "--bare", "--cwd", dir]);
  expect(init.code, init.stderr).toBe(0);
}

describe("the real Claude Code CLI, gated by toolgate hook claude-code", realClientTest, () => {
  it("denies `rm -rf /` with the plugin's reason reaching the model, runs `ls`, and runs post_tool_call", async () => {
    const session = await runClaude({ "policy.mjs": policyPlugin }, ["rm -rf /", "ls"]);
    expect(session.code, session.stderr).toBe(0);
    expect(session.results).toHaveLength(2);
    expect(session.results[0]!.isError).toBe(true);
    expect(session.results[0]!.text).toContain('Tool call blocked by plugin "e2e-policy": recursive deletes are off limits in this repository');
    expect(session.results[1]).toEqual({ text: expect.stringContaining("hello.txt"), isError: false });
    expect(session.finalText).toContain("recursive deletes are off limits");
    expect(session.shellCommands).not.toContain("rm -rf");
    expect(session.shellCommands).toContain("eval ls");
    // PostToolUse reached post_tool_call for the call that ran, and only for it.
    expect(readFileSync(join(session.dir, "post.log"), "utf8")).toBe("Bash ls\n");
  });

  it("a plugin that logs on every call changes nothing", async () => {
    const session = await runClaude({ "policy.mjs": policyPlugin, "noisy.mjs": noisyPlugin }, ["rm -rf /", "ls"]);
    expect(session.code, session.stderr).toBe(0);
    expect(session.results.map((result) => result.isError)).toEqual([true, false]);
    expect(session.results[0]!.text).toContain("recursive deletes are off limits in this repository");
    expect(session.results[1]!.text).toContain("hello.txt");
    expect(session.shellCommands).not.toContain("rm -rf");
  });

  it("rewritten arguments (updatedInput) are what runs", async () => {
    const session = await runClaude({ "policy.mjs": policyPlugin }, ["fix"]);
    expect(session.results).toEqual([{ text: expect.stringContaining("rewritten-by-toolgate"), isError: false }]);
    expect(session.shellCommands).toContain("echo rewritten-by-toolgate");
  });

  it("a broken plugin denies every call, naming the plugin", async () => {
    const session = await runClaude({ "policy.mjs": policyPlugin, "broken.mjs": brokenPlugin }, ["ls", "echo hello"]);
    expect(session.results).toHaveLength(2);
    for (const result of session.results) {
      expect(result.isError).toBe(true);
      expect(result.text).toMatch(/plugin "broken" failed to load/);
    }
    expect(session.shellCommands).not.toMatch(/eval (ls|'echo hello')/);
  });

  it("Claude Code's http hooks, answered by toolgate serve, deny and allow the same way", async () => {
    let served: Served | undefined;
    const session = await runClaude({ "policy.mjs": policyPlugin }, ["rm -rf /", "ls"], async (dir) => {
      served = await startServe(["--cwd", dir]);
      const hook = [{ matcher: "*", hooks: [{ type: "http", url: `${served.url}/v1/hooks/claude-code` }] }];
      writeFiles(dir, { ".claude/settings.json": JSON.stringify({ hooks: { PreToolUse: hook, PostToolUse: hook } }) });
    });
    await served?.stop();
    expect(session.code, session.stderr).toBe(0);
    expect(session.results.map((result) => result.isError)).toEqual([true, false]);
    expect(session.results[0]!.text).toContain('Tool call blocked by plugin "e2e-policy": recursive deletes are off limits in this repository');
    expect(session.results[1]!.text).toContain("hello.txt");
    expect(session.shellCommands).not.toContain("rm -rf");
    expect(readFileSync(join(session.dir, "post.log"), "utf8")).toBe("Bash ls\n");
  });
});
