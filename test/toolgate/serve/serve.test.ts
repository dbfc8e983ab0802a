import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { makeTempDir, removeTempDirs, runCli, writeFiles } from "../../helpers/cli-harness.js";
import { brokenPlugin } from "../../helpers/hook-harness.js";
import { eventually, post, startServe, type Served } from "../../helpers/serve-harness.js";

const servers: Served[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  removeTempDirs();
});

async function serve(files: (dir: string) => Record<string, string>, args: string[] = []): Promise<Served & { dir: string }> {
  const dir = makeTempDir("repo", "serve-");
  writeFiles(dir, files(dir));
  const served = await startServe(["--cwd", dir, ...args]);
  servers.push(served);
  return { ...served, dir };
}

/** A plugin whose messages carry `version`; `slow` takes 1.5 s; closing its host writes `closed-<version>`. */
const versioned = (version: string, dir: string) => `
import { writeFileSync } from "node:fs";
export default {
  name: "policy",
  hooks: {
    async pre_tool_call(call) {
      if (call.args.command === "slow") {
        await new Promise((resolve) => setTimeout(resolve, 1500));
        return { action: "block", message: "slow ${version}" };
      }
      if (call.kind === "shell" && String(call.args.command).includes("rm -rf")) return { action: "block", message: "no rm -rf (${version})" };
    },
    on_session_end() { writeFileSync(${JSON.stringify(join(dir, `closed-${version}`))}, "closed"); },
  },
};
`;

const check = (url: string, command: string) => post(`${url}/v1/check`, { call: { id: "c1", name: "Bash", args: { command }, kind: "shell" } });

describe("toolgate serve", () => {
  it("answers /v1/check and each agent's hook endpoint", async () => {
    const { url, dir } = await serve((dir) => ({ "plugins/policy.ts": versioned("v1", dir) }));
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await check(url, "rm -rf /")).toEqual({
      status: 200,
      body: {
        verdict: { action: "block", message: "no rm -rf (v1)", plugin: "policy", source: { kind: "plugin", name: "policy" }, args: { command: "rm -rf /" } },
      },
    });
    expect((await check(url, "ls")).body.verdict).toEqual({ action: "allow", args: { command: "ls" } });
    const claude = await post(`${url}/v1/hooks/claude-code`, {
      session_id: "s",
      cwd: dir,
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "rm -rf /" },
      tool_use_id: "t",
    });
    expect(claude.body.hookSpecificOutput).toMatchObject({
      permissionDecision: "deny",
      permissionDecisionReason: 'Tool call blocked by plugin "policy": no rm -rf (v1)',
    });
    const gemini = await post(`${url}/v1/hooks/gemini-cli`, {
      session_id: "s",
      cwd: dir,
      hook_event_name: "BeforeTool",
      tool_name: "run_shell_command",
      tool_input: { command: "rm -rf /" },
    });
    expect(gemini.body).toEqual({ decision: "deny", reason: 'Tool call blocked by plugin "policy": no rm -rf (v1)' });
    // One record per decided call, in the project's .toolgate/decisions.jsonl, each naming serve.
    const records = () =>
      existsSync(join(dir, ".toolgate/decisions.jsonl")) ? readFileSync(join(dir, ".toolgate/decisions.jsonl"), "utf8").split("\n").slice(0, -1) : [];
    await eventually(async () => records().length >= 4);
    expect(records().map((line) => JSON.parse(line) as Record<string, unknown>)).toEqual([
      expect.objectContaining({
        surface: "serve",
        tool: "Bash",
        kind: "shell",
        verdict: "block",
        outcome: "blocked",
        source: { kind: "plugin", name: "policy" },
      }),
      expect.objectContaining({ surface: "serve", verdict: "allow" }),
      expect.objectContaining({ surface: "serve", callId: "t", verdict: "block" }),
      expect.objectContaining({ surface: "serve", tool: "run_shell_command", verdict: "block" }),
    ]);
    expect((await post(`${url}/v1/hooks/claude-code`, "garbage")).body.hookSpecificOutput.permissionDecision).toBe("deny");
    expect((await post(`${url}/v1/check`, { call: { id: 1, name: "x", args: {} } })).status).toBe(400);
    expect((await post(`${url}/v1/nothing`, {})).status).toBe(404);
    const timed = await fetch(`${url}/v1/check`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ call: { id: "1", name: "ls", args: {} } }),
    });
    expect(timed.status).toBe(200);
    expect(timed.headers.get("server-timing")).toMatch(/^toolgate;dur=\d+\.\d{3}$/);
  });

  it("counts each agent's session apart: a per-session budget gives every session its own limit, as the hook command does", async () => {
    const budgetPackage = join(fileURLToPath(new URL("../../..", import.meta.url)), "plugins/budget");
    const config = { pluginsDir: false, plugins: [[budgetPackage, { limit: 1 }]] };
    const { url, dir } = await serve(() => ({ "toolgate.config.json": JSON.stringify(config) }));
    const claude = async (session: string, id: string) => {
      const input = { session_id: session, cwd: dir, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls" }, tool_use_id: id };
      return (await post(`${url}/v1/hooks/claude-code`, input)).body.hookSpecificOutput?.permissionDecision ?? "none";
    };
    const checked = async (id: string, session?: { id: string }) =>
      (await post(`${url}/v1/check`, { call: { id, name: "Bash", args: { command: "ls" } }, ...(session ? { session } : {}) })).body.verdict.action;
    expect([await claude("agent-a", "t1"), await claude("agent-b", "t2"), await claude("agent-a", "t3")]).toEqual(["none", "none", "deny"]);
    expect([await checked("c1", { id: "agent-c" }), await checked("c2", { id: "agent-c" }), await checked("c3")]).toEqual(["allow", "block", "allow"]);
    expect((await post(`${url}/v1/check`, { call: { id: "c4", name: "Bash", args: {} }, session: { id: "" } })).body).toEqual({
      error: "the call's options are invalid: session.id must not be empty",
    });
    const log = join(dir, ".toolgate/decisions.jsonl");
    const sessions = () =>
      existsSync(log)
        ? readFileSync(log, "utf8")
            .split("\n")
            .slice(0, -1)
            .map((line) => (JSON.parse(line) as { session: string }).session)
        : [];
    await eventually(async () => sessions().length >= 6);
    expect(sessions().slice(0, 5)).toEqual(["agent-a", "agent-b", "agent-a", "agent-c", "agent-c"]);
    expect(sessions()[5]).not.toMatch(/^agent-/);
  });

  it("reloads when a plugin file changes; an in-flight call finishes with the old plugins, then the old host closes", async () => {
    const served = await serve((dir) => ({ "plugins/policy.ts": versioned("v1", dir) }));
    const { dir } = served;
    const slow = check(served.url, "slow");
    await new Promise((resolve) => setTimeout(resolve, 300));
    writeFiles(dir, { "plugins/policy.ts": versioned("v2", dir) });
    await eventually(async () => (await check(served.url, "rm -rf /")).body.verdict.message === "no rm -rf (v2)");
    expect(existsSync(join(dir, "closed-v1"))).toBe(false);
    expect((await slow).body.verdict.message).toBe("slow v1");
    await eventually(async () => existsSync(join(dir, "closed-v1")));
    // One plugin, once: the new host has its own registry, so nothing is registered twice.
    const health = await fetch(`${served.url}/v1/health`).then((response) => response.json());
    expect(health).toEqual({ ok: true, plugins: [{ name: "policy", status: "loaded" }] });
    expect((await check(served.url, "slow")).body.verdict.message).toBe("slow v2");
  });

  it("reloads the config too; a broken plugin or config denies every call until fixed", async () => {
    const served = await serve((dir) => ({ "plugins/policy.ts": versioned("v1", dir) }));
    const { dir } = served;
    writeFiles(dir, { "toolgate.config.ts": "export default { hookTimeoutMs: -5 };" });
    await eventually(async () => (await check(served.url, "ls")).body.verdict.action === "block");
    expect((await check(served.url, "ls")).body.verdict.message).toContain("hookTimeoutMs");
    writeFiles(dir, { "toolgate.config.ts": "export default {};", "plugins/broken.mjs": brokenPlugin });
    await eventually(async () => /plugin "broken" failed to load/.test((await check(served.url, "ls")).body.verdict.message ?? ""));
    const claude = await post(`${served.url}/v1/hooks/claude-code`, { hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls" } });
    expect(claude.body.hookSpecificOutput.permissionDecision).toBe("deny");
  });

  it("onPluginError: allow in the config lets the plugins that loaded decide alone, as on every surface", async () => {
    const served = await serve((dir) => ({ "plugins/policy.ts": versioned("v1", dir), "plugins/broken.mjs": brokenPlugin }));
    expect((await check(served.url, "ls")).body.verdict).toMatchObject({ action: "block", message: expect.stringMatching(/plugin "broken" failed to load/) });
    writeFiles(served.dir, { "toolgate.config.ts": 'export default { onPluginError: "allow" };' });
    await eventually(async () => (await check(served.url, "ls")).body.verdict.action === "allow");
    expect((await check(served.url, "rm -rf /")).body.verdict.message).toBe("no rm -rf (v1)");
  });

  it("requires the bearer token when one is set", async () => {
    const { url } = await serve(() => ({}), ["--token", "s3cret"]);
    const body = { call: { id: "1", name: "ls", args: {} } };
    expect((await post(`${url}/v1/check`, body)).status).toBe(401);
    expect((await post(`${url}/v1/check`, body, { authorization: "Bearer wrong" })).status).toBe(401);
    expect((await post(`${url}/v1/check`, body, { authorization: "Bearer s3cret" })).status).toBe(200);
  });

  it("refuses to listen beyond loopback without a token", async () => {
    const run = await runCli(["serve", "--host", "0.0.0.0", "--port", "0"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--host 0.0.0.0 is reachable from other machines: set --token");
  });
});
