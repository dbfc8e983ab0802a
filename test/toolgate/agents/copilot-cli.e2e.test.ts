import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { removeTempDirs, writeFiles } from "../../helpers/cli-harness.js";
import { agentEnv, e2ePolicyPlugin, e2eProject, runAgent, type E2ePlugins } from "../../helpers/e2e-harness.js";
import { functionOutputs, startFakeResponsesApi } from "./fake-openai-responses-api.js";
import { brokenPlugin, noisyPlugin } from "../../helpers/hook-harness.js";
import { installedTool } from "../../helpers/installed-tool.js";
import { realClientTest } from "../../helpers/real-client.js";

/**
 * The real Copilot CLI (`@github/copilot`, `copilot -p`) with a custom model provider (BYOK, no GitHub
 * sign-in): a fake Responses API on 127.0.0.1. Its tools are gated by `toolgate hook copilot-cli` as
 * `toolgate init copilot-cli` installs it (`.github/hooks/toolgate.json`).
 */

const copilot = await installedTool("@github/copilot", "1.0.102", "npm-loader.js");

afterAll(removeTempDirs);

const policyPlugin = (dir: string) => e2ePolicyPlugin(dir, 'call.name + " " + call.kind + " " + call.args.command');

async function runCopilot(plugins: E2ePlugins, commands: readonly string[]) {
  const { dir, home } = await e2eProject("copilot-cli", plugins);
  // Copilot CLI runs a repository's hooks only in a folder the user trusts.
  writeFiles(home, { ".copilot/config.json": JSON.stringify({ trusted_folders: [dir] }) });
  const api = await startFakeResponsesApi((request) => {
    const outputs = functionOutputs(request);
    const next = commands[outputs.length];
    return next === undefined
      ? { text: `I got: ${outputs.join(" || ")}` }
      : { call: { name: "bash", arguments: { command: next, description: "run a command" } } };
  });
  const env = agentEnv(home, {
    COPILOT_PROVIDER_BASE_URL: api.url,
    COPILOT_PROVIDER_API_KEY: "fake-key-for-tests",
    COPILOT_PROVIDER_WIRE_API: "responses",
    COPILOT_MODEL: "gpt-5.4",
    COPILOT_AUTO_UPDATE: "false",
  });
  const { code, stderr } = await runAgent(copilot, ["-p", "run the commands", "--allow-all-tools", "--disable-client-telemetry", "--no-auto-update"], dir, env);
  await api.close();
  const last = api.requests.at(-1);
  return { dir, code, stderr, outputs: last ? functionOutputs(last) : [] };
}

// Copilot CLI's shell goes through no guard we can put in front of it, so the denied command deletes a
// folder of the test's own (the canary), never anything else.
describe("the real Copilot CLI, gated by toolgate hook copilot-cli", realClientTest, () => {
  it("denies `rm -rf` with the plugin's reason reaching the model, applies a rewrite, runs `ls` and post_tool_call, with a noisy plugin loaded", async () => {
    const session = await runCopilot({ "policy.mjs": policyPlugin, "noisy.mjs": noisyPlugin }, ["rm -rf ./canary", "fix", "ls"]);
    expect(session.code, session.stderr).toBe(0);
    expect(session.outputs).toHaveLength(3);
    expect(session.outputs[0]).toContain("recursive deletes are off limits in this repository");
    expect(session.outputs[1]).toContain("rewritten-by-toolgate");
    expect(session.outputs[2]).toContain("hello.txt");
    expect(existsSync(join(session.dir, "canary/keep.txt"))).toBe(true);
    expect(readFileSync(join(session.dir, "post.log"), "utf8")).toContain("bash shell ls\n");
  });

  it("a broken plugin denies every call, naming the plugin", async () => {
    const session = await runCopilot({ "policy.mjs": policyPlugin, "broken.mjs": brokenPlugin }, ["touch ran-1", "touch ran-2"]);
    expect(session.outputs).toHaveLength(2);
    for (const output of session.outputs) expect(output).toMatch(/plugin "broken" failed to load/);
    expect(existsSync(join(session.dir, "ran-1"))).toBe(false);
    expect(existsSync(join(session.dir, "ran-2"))).toBe(false);
  });
});
