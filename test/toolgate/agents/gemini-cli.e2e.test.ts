import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { removeTempDirs, writeFiles } from "../../helpers/cli-harness.js";
import { agentEnv, e2ePolicyPlugin, e2eProject, runAgent, type E2ePlugins } from "../../helpers/e2e-harness.js";
import { functionResponses, startFakeGeminiApi } from "./fake-gemini-api.js";
import { brokenPlugin, noisyPlugin } from "../../helpers/hook-harness.js";
import { installedTool } from "../../helpers/installed-tool.js";
import { realClientTest } from "../../helpers/real-client.js";

/**
 * The real Gemini CLI (`@google/gemini-cli`, headless `-p --yolo`) against a fake Gemini API on
 * 127.0.0.1, its tools gated by `toolgate hook gemini-cli` as `toolgate init gemini-cli` installs it.
 */

const gemini = await installedTool("@google/gemini-cli", "0.61.0", "bundle/gemini.js");

afterAll(removeTempDirs);

const policyPlugin = (dir: string) => e2ePolicyPlugin(dir, 'call.name + " " + call.args.command');

async function runGemini(plugins: E2ePlugins, commands: readonly string[]) {
  const { dir, home } = await e2eProject("gemini-cli", plugins);
  writeFiles(home, {
    ".gemini/settings.json": JSON.stringify({
      security: { auth: { selectedType: "gemini-api-key" }, folderTrust: { enabled: false } },
      // Nothing that would reach out past the fake API: no update check, no usage statistics.
      general: { disableAutoUpdate: true, disableUpdateNag: true },
      privacy: { usageStatisticsEnabled: false },
    }),
  });
  const api = await startFakeGeminiApi((request) => {
    const responses = functionResponses(request);
    const next = commands[responses.length];
    if (next !== undefined) return [{ functionCall: { name: "run_shell_command", args: { command: next } } }];
    return [{ text: `I got: ${responses.map((response) => response.text).join(" || ")}` }];
  });
  const env = agentEnv(home, { GEMINI_API_KEY: "fake-key-for-tests", GOOGLE_GEMINI_BASE_URL: api.url, GEMINI_CLI_NO_RELAUNCH: "true" });
  const { code, stderr } = await runAgent(gemini, ["-p", "run the commands", "--yolo", "--output-format", "json", "-m", "gemini-2.5-flash"], dir, env);
  await api.close();
  const last = api.requests.at(-1);
  return { dir, code, stderr, responses: last ? functionResponses(last).map((response) => response.text) : [] };
}

describe("the real Gemini CLI, gated by toolgate hook gemini-cli", realClientTest, () => {
  // Gemini CLI's shell does not go through a guard we can put in front of it, so the denied command is a
  // recursive delete of a folder of the test's own (the canary), never of anything else.
  it("denies `rm -rf` with the plugin's reason reaching the model, runs `ls` and post_tool_call, with a noisy plugin loaded", async () => {
    const session = await runGemini({ "policy.mjs": policyPlugin, "noisy.mjs": noisyPlugin }, ["rm -rf ./canary", "ls"]);
    expect(session.code, session.stderr).toBe(0);
    expect(session.responses).toHaveLength(2);
    expect(session.responses[0]).toContain("recursive deletes are off limits in this repository");
    expect(session.responses[1]).toContain("hello.txt");
    expect(existsSync(join(session.dir, "canary/keep.txt"))).toBe(true);
    expect(readFileSync(join(session.dir, "post.log"), "utf8")).toBe("run_shell_command ls\n");
  });

  it("rewritten arguments are what runs", async () => {
    const session = await runGemini({ "policy.mjs": policyPlugin }, ["fix"]);
    expect(session.responses).toHaveLength(1);
    expect(session.responses[0]).toContain("rewritten-by-toolgate");
  });

  it("a broken plugin denies every call, naming the plugin", async () => {
    const session = await runGemini({ "policy.mjs": policyPlugin, "broken.mjs": brokenPlugin }, ["touch ran-1", "touch ran-2"]);
    expect(session.responses).toHaveLength(2);
    for (const response of session.responses) expect(response).toMatch(/plugin \\?"broken\\?" failed to load/);
    expect(existsSync(join(session.dir, "ran-1"))).toBe(false);
    expect(existsSync(join(session.dir, "ran-2"))).toBe(false);
  });
});
