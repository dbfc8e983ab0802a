import { spawn } from "node:child_process";
import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, describe, expect, it } from "vitest";
import { removeTempDirs, writeFiles } from "../../helpers/cli-harness.js";
import { agentEnv, e2ePolicyPlugin, e2eProject, runAgent, type E2ePlugins } from "../../helpers/e2e-harness.js";
import { functionOutputs, startFakeResponsesApi } from "./fake-openai-responses-api.js";
import { brokenPlugin, noisyPlugin } from "../../helpers/hook-harness.js";
import { installedTool } from "../../helpers/installed-tool.js";
import { realClientTest } from "../../helpers/real-client.js";

/**
 * The real Codex CLI (`@openai/codex`, `codex exec`) against a fake Responses API on 127.0.0.1, its
 * shell tool gated by `toolgate hook codex` as `toolgate init codex` installs it (`.codex/hooks.json`).
 */

const codex = await installedTool("@openai/codex", "0.169.0", "bin/codex.js");

afterAll(removeTempDirs);

const policyPlugin = (dir: string) => e2ePolicyPlugin(dir, 'call.name + " " + call.kind');

/**
 * Codex runs a hook only once it has been reviewed. What a user approves in the interactive review is
 * written here the same way: the hash Codex computes (asked from its app server, `hooks/list`) stored as
 * `hooks.state."<hook>".trusted_hash` in its config.
 */
async function trustHooks(env: NodeJS.ProcessEnv, dir: string, configPath: string): Promise<void> {
  const server = spawn(codex, ["app-server"], { cwd: dir, env, stdio: ["pipe", "pipe", "ignore"] });
  const send = (message: unknown) => server.stdin.write(`${JSON.stringify(message)}\n`);
  send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { clientInfo: { name: "toolgate-tests", title: "toolgate tests", version: "1" } } });
  send({ jsonrpc: "2.0", method: "initialized" });
  send({ jsonrpc: "2.0", id: 2, method: "hooks/list", params: { cwds: [dir] } });
  const hooks = await new Promise<{ key: string; currentHash: string }[]>((resolve, reject) => {
    createInterface({ input: server.stdout }).on("line", (line) => {
      const message = JSON.parse(line) as { id?: number; result?: { data: { hooks: { key: string; currentHash: string }[] }[] } };
      if (message.id === 2) resolve(message.result?.data.flatMap((entry) => entry.hooks) ?? []);
    });
    server.once("exit", (code) => reject(new Error(`codex app-server exited with ${code}`)));
  });
  server.kill();
  expect(hooks.length).toBeGreaterThanOrEqual(2);
  for (const hook of hooks) appendFileSync(configPath, `[hooks.state."${hook.key}"]\ntrusted_hash = "${hook.currentHash}"\n`);
}

async function runCodex(plugins: E2ePlugins, commands: readonly string[]) {
  const { dir, home } = await e2eProject("codex", plugins);
  const api = await startFakeResponsesApi((request) => {
    const outputs = functionOutputs(request);
    const next = commands[outputs.length];
    return next === undefined ? { text: `I got: ${outputs.join(" || ")}` } : { call: { name: "exec_command", arguments: { cmd: next } } };
  });
  const config = [
    'model = "gpt-5"',
    'model_provider = "fake"',
    "[model_providers.fake]",
    'name = "fake"',
    `base_url = "${api.url}"`,
    'env_key = "FAKE_OPENAI_KEY"',
    'wire_api = "responses"',
    `[projects."${dir}"]`,
    'trust_level = "trusted"',
    "",
  ].join("\n");
  writeFiles(home, { ".codex/config.toml": config });
  const env = agentEnv(home, { CODEX_HOME: join(home, ".codex"), FAKE_OPENAI_KEY: "fake-key-for-tests" });
  await trustHooks(env, dir, join(home, ".codex/config.toml"));
  const { code, stderr } = await runAgent(codex, ["exec", "--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox", "run the commands"], dir, env);
  await api.close();
  const last = api.requests.at(-1);
  return { dir, code, stderr, outputs: last ? functionOutputs(last) : [] };
}

// Codex's shell goes through no guard we can put in front of it, so the denied command deletes a folder
// of the test's own (the canary), never anything else.
describe("the real Codex CLI, gated by toolgate hook codex", realClientTest, () => {
  it("denies `rm -rf` with the plugin's reason reaching the model, runs `ls` and post_tool_call, with a noisy plugin loaded", async () => {
    const session = await runCodex({ "policy.mjs": policyPlugin, "noisy.mjs": noisyPlugin }, ["rm -rf ./canary", "ls"]);
    expect(session.code, session.stderr).toBe(0);
    expect(session.outputs).toHaveLength(2);
    expect(session.outputs[0]).toContain("recursive deletes are off limits in this repository");
    expect(session.outputs[1]).toContain("hello.txt");
    expect(existsSync(join(session.dir, "canary/keep.txt"))).toBe(true);
    expect(readFileSync(join(session.dir, "post.log"), "utf8")).toMatch(/shell\n$/);
  });

  it("a broken plugin denies every call, naming the plugin", async () => {
    const session = await runCodex({ "policy.mjs": policyPlugin, "broken.mjs": brokenPlugin }, ["touch ran-1", "touch ran-2"]);
    expect(session.outputs).toHaveLength(2);
    for (const output of session.outputs) expect(output).toMatch(/plugin "broken" failed to load/);
    expect(existsSync(join(session.dir, "ran-1"))).toBe(false);
    expect(existsSync(join(session.dir, "ran-2"))).toBe(false);
  });
});
