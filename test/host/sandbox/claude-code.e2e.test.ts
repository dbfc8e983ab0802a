import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fakeApiEnv, startFakeAnthropicApi, toolResults } from "../../../packages/claude-agent-sdk/src/fixtures/fake-messages-api.js";
import { runCli } from "../../helpers/cli-harness.js";
import { agentEnv, runAgent } from "../../helpers/e2e-harness.js";
import { installToolgateBin } from "../../helpers/hook-harness.js";
import { installedTool } from "../../helpers/installed-tool.js";
import { realClientTest } from "../../helpers/real-client.js";
import { makeWorld, noSandbox, type World } from "./world.js";

/**
 * The real Claude Code CLI (headless `-p`) against a fake Anthropic API on 127.0.0.1 that asks for one
 * Bash call, gated by `toolgate hook claude-code` as `toolgate init` installs it, with the sandbox in the
 * project's config: Claude Code runs the contained command it was handed in `updatedInput`.
 */

const claude = await installedTool("@anthropic-ai/claude-code", "2.1.328", "bin/claude.exe");

const worlds: World[] = [];
afterAll(() => {
  for (const made of worlds) made.remove();
});

describe.skipIf(noSandbox)("the real Claude Code CLI with the sandbox", realClientTest, () => {
  it("runs the Bash call contained: its write inside the project happens, its write outside fails", async () => {
    const world = makeWorld("claude-e2e");
    worlds.push(world);
    installToolgateBin(world.project);
    const init = await runCli(["init", "claude-code", "--bare", "--cwd", world.project]);
    expect(init.code, init.stderr).toBe(0);
    const home = join(world.root, "home");
    mkdirSync(home);

    let finalText = "";
    const api = await startFakeAnthropicApi((request) => {
      const results = toolResults(request);
      if (results.length === 0) return [{ type: "tool_use", name: "Bash", input: { command: world.command, description: "two writes" } }];
      finalText = `I got: ${results.map((result) => result.text).join(" || ")}`;
      return [{ type: "text", text: finalText }];
    });
    const args = ["-p", "run the command", "--output-format", "json", "--allowedTools", "Bash", "--max-turns", "3"];
    const { code, stderr } = await runAgent(claude, args, world.project, agentEnv(home, fakeApiEnv(api.url)));
    await api.close();
    expect(code, stderr).toBe(0);
    expect(finalText).toMatch(/x\.txt: Read-only file system/);
    expect(world.effects()).toEqual({ inside: true, outside: false });
  });
});
