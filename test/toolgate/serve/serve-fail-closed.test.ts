import { request as httpRequest } from "node:http";
import { afterAll, describe, expect, it } from "vitest";
import { agentProtocols } from "../../../packages/toolgate/src/agents/agents.js";
import { makeTempDir, removeTempDirs, writeFiles } from "../../helpers/cli-harness.js";
import { eventually, post, startServe, type Served } from "../../helpers/serve-harness.js";

/**
 * Every way `toolgate serve` could stop answering is a deny instead: an agent runs the tool when its
 * hook endpoint drops the connection, dies, or answers with anything but a 200 carrying its deny.
 * Real `toolgate serve` processes, real HTTP.
 */

const servers: Served[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  removeTempDirs();
});

async function serve(files: Record<string, string>): Promise<Served & { dir: string }> {
  const dir = makeTempDir("repo", "serve-fail-");
  writeFiles(dir, files);
  const served = await startServe(["--cwd", dir]);
  servers.push(served);
  return { ...served, dir };
}

const check = (url: string, command: string) => post(`${url}/v1/check`, { call: { id: "c1", name: "Bash", args: { command }, kind: "shell" } });
const claudeInput = (dir: string, command: string) => ({
  session_id: "s",
  cwd: dir,
  hook_event_name: "PreToolUse",
  tool_name: "Bash",
  tool_input: { command },
  tool_use_id: "t",
});

/** Code that escapes the hook's own promise, each way JavaScript has; run by `strays.ts` beside the plugin. */
const strayKinds: Record<string, string> = {
  "a throw in a timer": `setTimeout(() => { throw new Error("stray timer"); }, 5);`,
  "a non-Error thrown in a timer": `setTimeout(() => { throw 42; }, 5);`,
  "a throw in setImmediate": `setImmediate(() => { throw new TypeError("stray immediate"); });`,
  "a throw in process.nextTick": `process.nextTick(() => { throw new Error("stray tick"); });`,
  "a throw in queueMicrotask": `queueMicrotask(() => { throw new Error("stray microtask"); });`,
  "an unhandled Promise.reject(Error)": `void Promise.reject(new Error("stray rejection"));`,
  "an unhandled Promise.reject of a string (no stack)": `void Promise.reject("stray string");`,
  "an unhandled Promise.reject(undefined)": `void Promise.reject(undefined);`,
  "an async function's throw nobody awaits": `void (async () => { await null; throw new RangeError("stray async"); })();`,
  "an emitter's error event with no listener": `import("node:events").then(({ EventEmitter }) => new EventEmitter().emit("error", new Error("stray emitter")));`,
  "a later rejection of a promise made in the hook": `new Promise((_, reject) => setTimeout(() => reject(new Error("stray late")), 5));`,
  "ten throws in a row": `for (let i = 0; i < 10; i++) setTimeout(() => { throw new Error("stray " + i); }, 5);`,
};

/** "bad" starts the stray code on the command "trigger" and allows everything; "good" allows everything. */
function strayProject(code: string, config = "export default {};"): Record<string, string> {
  return {
    "toolgate.config.ts": config,
    "plugins/bad/index.ts": `import { stray } from "./strays.ts";\nexport default { name: "bad", hooks: { pre_tool_call(call) { if (call.args.command === "trigger") stray(); } } };\n`,
    "plugins/bad/strays.ts": `export function stray() {\n  ${code}\n}\n`,
    "plugins/good.ts": `export default { name: "good", hooks: { pre_tool_call() {} } };\n`,
  };
}

describe("toolgate serve: a plugin's stray throw or rejection fails that plugin, never the server", () => {
  it.each(Object.entries(strayKinds))("%s: the server lives and denies every call naming the plugin", async (_kind, code) => {
    const { url, dir, child, stderr } = await serve(strayProject(code));
    expect((await check(url, "ls")).body.verdict.action).toBe("allow");
    // The hook that starts the stray code returns normally: the call that ran it is allowed.
    expect((await check(url, "trigger")).body.verdict.action).toBe("allow");
    await eventually(async () => (await check(url, "ls")).body.verdict.action === "block");
    expect(child.exitCode).toBeNull();
    const verdict = (await check(url, "ls")).body.verdict;
    const named = !/string|undefined|non-Error/.test(_kind);
    expect(verdict.message).toMatch(/^toolgate could not decide: .*failed: an error escaped its hooks: .*onPluginError: "block"/);
    if (named)
      expect(verdict).toMatchObject({ plugin: "bad", source: { kind: "plugin", name: "bad" }, message: expect.stringContaining('plugin "bad" failed') });
    else expect(verdict.message).toContain("a plugin (no stack frame names which) failed");
    const claude = await post(`${url}/v1/hooks/claude-code`, claudeInput(dir, "ls"));
    expect(claude.status).toBe(200);
    expect(claude.body.hookSpecificOutput).toMatchObject({
      permissionDecision: "deny",
      permissionDecisionReason: expect.stringContaining("escaped its hooks"),
    });
    const health = (await fetch(`${url}/v1/health`).then((response) => response.json())) as any;
    expect(health.ok).toBe(false);
    if (named) expect(health.plugins).toContainEqual({ name: "bad", status: "failed", error: expect.stringContaining("escaped its hooks") });
    expect(health.plugins).toContainEqual({ name: "good", status: "loaded" });
    expect(stderr()).toContain("escaped its hooks");
  });

  it("a stray error while a slow call is in flight: that call and the next ones are answered", async () => {
    const code = `setTimeout(() => { throw new Error("stray during a call"); }, 50);`;
    const files = strayProject(code);
    files["plugins/slow.ts"] =
      `export default { name: "slow", hooks: { async pre_tool_call(call) { if (call.args.command === "slow") await new Promise((r) => setTimeout(r, 600)); } } };\n`;
    const { url, child } = await serve(files);
    const slow = check(url, "slow");
    await new Promise((resolve) => setTimeout(resolve, 100));
    await check(url, "trigger");
    const answered = await slow;
    expect(answered.status).toBe(200);
    await eventually(async () => (await check(url, "ls")).body.verdict.plugin === "bad");
    expect(child.exitCode).toBeNull();
  });

  it("a stray error while the plugins load fails the plugin from the start", async () => {
    const files = strayProject("");
    files["plugins/bad/index.ts"] =
      `setTimeout(() => { throw new Error("stray at load"); }, 1);\nexport default { name: "bad", hooks: { pre_tool_call() {} } };\n`;
    const { url, child } = await serve(files);
    await eventually(async () => (await check(url, "ls")).body.verdict.plugin === "bad");
    expect((await check(url, "ls")).body.verdict.message).toContain("stray at load");
    expect(child.exitCode).toBeNull();
  });

  it('under onPluginError "allow" the server lives, reports the plugin failed, and the others decide', async () => {
    const { url, child, stderr } = await serve(strayProject(strayKinds["a throw in a timer"]!, 'export default { onPluginError: "allow" };'));
    await check(url, "trigger");
    await eventually(async () => stderr().includes("escaped its hooks"));
    expect((await check(url, "ls")).body.verdict.action).toBe("allow");
    const health = (await fetch(`${url}/v1/health`).then((response) => response.json())) as any;
    expect(health.plugins).toContainEqual({ name: "bad", status: "failed", error: expect.stringContaining("stray timer") });
    expect(child.exitCode).toBeNull();
  });

  it("a fixed plugin reloads and decides again", async () => {
    const { url, dir } = await serve(strayProject(strayKinds["a throw in a timer"]!));
    await check(url, "trigger");
    await eventually(async () => (await check(url, "ls")).body.verdict.action === "block");
    writeFiles(dir, { "plugins/bad/strays.ts": "export function stray() {}\n" });
    await eventually(async () => (await check(url, "ls")).body.verdict.action === "allow");
  });
});

/** A POST whose body is `size` bytes of valid JSON (a command padded with spaces), sent in chunks without Content-Length. */
function postChunked(url: string, path: string, prefix: string, size: number, suffix: string): Promise<{ status: number; body: any }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ hostname, port, method: "POST", path, headers: { "content-type": "application/json" } }, (response) => {
      let text = "";
      response.on("data", (chunk: Buffer) => (text += chunk.toString()));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }));
    });
    outgoing.on("error", reject);
    outgoing.write(prefix);
    const chunk = " ".repeat(64 * 1024);
    let left = size - prefix.length - suffix.length;
    while (left > 0) {
      outgoing.write(chunk.slice(0, Math.min(left, chunk.length)));
      left -= chunk.length;
    }
    outgoing.end(suffix);
  });
}

const limit = 8 * 1024 * 1024;

describe("toolgate serve: an oversized body gets a 200 deny in the caller's dialect, never a 413 or a reset", () => {
  const sizes = { "one byte over the limit": limit + 1, "twice the limit": 2 * limit };

  it.each(Object.keys(agentProtocols))("POST /v1/hooks/%s", async (agent) => {
    const { url, dir } = await serve({ "plugins/good.ts": `export default { name: "good", hooks: { pre_tool_call() {} } };\n` });
    const protocol = agentProtocols[agent as keyof typeof agentProtocols];
    const input = JSON.stringify(claudeInput(dir, "rm -rf ~"));
    for (const [name, size] of Object.entries(sizes)) {
      const body = input.slice(0, -1) + " ".repeat(size - input.length) + "}";
      const answer = await post(`${url}/v1/hooks/${agent}`, body);
      const expected = protocol.denyForFailure(`${protocol.name} hook input: the body is larger than ${limit} bytes (${size} bytes)`, undefined).body;
      expect({ name, ...answer }).toEqual({ name, status: 200, body: expected });
      expect(JSON.stringify(answer.body)).toMatch(/"(permissionDecision|decision)":"deny"/);
      const chunked = await postChunked(url, `/v1/hooks/${agent}`, input.slice(0, -1), size, "}");
      expect({ name, ...chunked }).toEqual({ name, status: 200, body: expected });
    }
    // At the limit the body is read and decided as usual.
    const atLimit = input.slice(0, -1) + " ".repeat(limit - input.length) + "}";
    expect((await post(`${url}/v1/hooks/${agent}`, atLimit)).status).toBe(200);
  });

  it("POST /v1/check", async () => {
    const { url } = await serve({
      "plugins/policy.ts": `export default { name: "policy", hooks: { pre_tool_call(call) { if (String(call.args.command).includes("rm -rf")) return { action: "block", message: "no" }; } } };\n`,
    });
    const call = JSON.stringify({ call: { id: "c", name: "Bash", args: { command: "ls" }, kind: "shell" } });
    for (const [name, size] of Object.entries(sizes)) {
      const answer = await postChunked(url, "/v1/check", call.slice(0, -1), size, "}");
      expect({ name, ...answer }).toEqual({
        name,
        status: 200,
        body: { verdict: { action: "block", message: `toolgate could not decide: the body is larger than ${limit} bytes (${size} bytes)`, args: {} } },
      });
    }
    const padded = JSON.stringify({ call: { id: "c", name: "Bash", args: { command: `rm -rf ~${" ".repeat(limit - 200)}` }, kind: "shell" } });
    expect((await post(`${url}/v1/check`, padded)).body.verdict).toMatchObject({ action: "block", message: "no" });
  });
});
