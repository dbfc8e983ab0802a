import { createHost, type Host, type HostOptions, type PluginEntry, type ToolCall } from "@toolgate/host";
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";
import { threadId } from "node:worker_threads";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { recordEvents } from "../helpers/recorders.js";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const fixtures = join(repoRoot, "test/fixtures/isolation");
const fixture = (file: string) => join(fixtures, file);
const shellGuard = join(repoRoot, "plugins/block-dangerous-shell");
const tmp = join(repoRoot, "test/.tmp");
mkdirSync(tmp, { recursive: true });
const tmpDir = mkdtempSync(join(tmp, "isolation-"));
afterAll(() => rmSync(tmpDir, { recursive: true, force: true }));

// A call that arrives while a worker restarts waits for it within its own timeout: this one is long
// enough for a restart on a busy machine (a few hundred ms from source), short enough to keep the suite quick.
const hookTimeoutMs = 3000;
const hosts: Host[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});

const ran: { tool: string; args: Record<string, unknown> }[] = [];
const tool = (name: string) => ({ execute: (args: Record<string, unknown>) => (ran.push({ tool: name, args }), `${name} ran`) });
const tools = { read: tool("read"), write: tool("write"), linger: tool("linger"), bash: { ...tool("bash"), kind: "shell" } };

async function hostWith(plugins: PluginEntry[], options: HostOptions = {}): Promise<Host> {
  ran.length = 0;
  const host = await createHost({ pluginsDir: false, configFile: false, logger: false, hookTimeoutMs, tools, plugins, ...options });
  hosts.push(host);
  return host;
}

const isolated = (path: string, options: Record<string, unknown> = {}): PluginEntry => [path, options, { isolation: "worker" }];
const call = (name: string, args: Record<string, unknown> = {}): ToolCall => ({ id: `call-${name}`, name, args });

/** Which worker thread runs the plugin now: its `whoami` tool answers from inside it. */
async function workerThreadOf(host: Host): Promise<number> {
  const result = await host.callTool(call("whoami"));
  expect(result.status).toBe("ok");
  return (result.data as { threadId: number }).threadId;
}

describe("a plugin in a worker thread", () => {
  it("is loaded inside the worker: its name, version and tools are the module's, and its tool runs there", async () => {
    const host = await hostWith([isolated(fixture("misbehaving.ts"))]);
    expect(host.plugins).toMatchObject([{ name: "misbehaving", version: "1.2.3", status: "loaded", path: fixture("misbehaving.ts") }]);
    expect(host.plugins[0]!.warnings).toEqual(['unknown hook "pre_tool_cal"; did you mean "pre_tool_call"? It will never be called']);
    expect(host.toolNames).toContain("whoami");
    const result = await host.callTool(call("whoami", { asked: "by the test" }));
    expect(result.data).toMatchObject({ args: { asked: "by the test" } });
    expect(await workerThreadOf(host)).not.toBe(threadId);
  });

  it("blocks rm -rf / with the same verdict as in-process, and lets ls through", async () => {
    const inProcess = await hostWith([shellGuard]);
    const inWorker = await hostWith([isolated(shellGuard)]);
    const dangerous = { ...call("bash", { command: "rm -rf /" }), kind: "shell" };
    const expected = await inProcess.checkToolCall(dangerous);
    expect(expected.action).toBe("block");
    expect(await inWorker.checkToolCall(dangerous)).toEqual(expected);
    const result = await inWorker.callTool(dangerous);
    expect(result).toMatchObject({ status: "blocked", blockedBy: "block-dangerous-shell" });
    expect(ran).toEqual([]);
    expect(await inWorker.callTool({ ...call("bash", { command: "ls -la" }), kind: "shell" })).toMatchObject({ status: "ok" });
  });

  it("gives an isolated plugin the host's store: rate-limit counts across calls and its slots settle in the host", async () => {
    const rateLimit = join(repoRoot, "plugins/rate-limit");
    const host = await hostWith([isolated(rateLimit, { max: 2, windowMs: 60_000 })], { store: "memory" });
    const statuses = [];
    for (const id of ["a", "b", "c"]) statuses.push((await host.callTool({ id, name: "read", args: {} })).status);
    expect(statuses).toEqual(["ok", "ok", "blocked"]);
    expect(ran.map((entry) => entry.tool)).toEqual(["read", "read"]);
  });

  it("modifies arguments: the tool runs with what the worker's hook returned, built from the plugin's options", async () => {
    const host = await hostWith([isolated(fixture("misbehaving.ts"), { label: "from-options" })]);
    const result = await host.callTool(call("write", { path: "notes.txt" }));
    expect(result.status).toBe("ok");
    expect(ran).toEqual([{ tool: "write", args: { path: "/sandbox/notes.txt", by: "from-options" } }]);
  });

  it("hands hooks frozen arguments, as in-process: a hook that writes to them fails closed", async () => {
    const host = await hostWith([isolated(fixture("misbehaving.ts"))]);
    const verdict = await host.checkToolCall(call("mutate", { path: "a" }));
    expect(verdict).toMatchObject({ action: "block", plugin: "misbehaving" });
    expect(verdict.message).toMatch(/read.only|not extensible|Cannot assign/i);
  });

  it("runs observer hooks in the worker: on_session_start once, post_tool_call after each call", async () => {
    const host = await hostWith([isolated(fixture("misbehaving.ts"))]);
    await host.callTool(call("read"));
    const result = await host.callTool(call("whoami"));
    expect(result.data).toMatchObject({ lifecycle: ["on_session_start", "post_tool_call read ok"] });
  });

  it("forwards the plugin's log lines (factory and hooks) to the host logger, naming the plugin", async () => {
    const lines: string[] = [];
    const record = (message: string, ...details: unknown[]) => lines.push([message, ...details.map((detail) => JSON.stringify(detail))].join(" "));
    const logger = { debug: record, info: record, warn: record, error: record };
    const host = await hostWith([isolated(fixture("misbehaving.ts"))], { logger });
    await host.checkToolCall(call("log", { path: "a.txt" }));
    expect(lines).toContainEqual(expect.stringMatching(/^\[misbehaving\] factory ran in thread \d+$/));
    expect(lines).toContain('[misbehaving] hook log line {"path":"a.txt"}');
  });
});

describe("a hung plugin cannot hang the host", () => {
  it.each([
    ["a synchronous infinite loop", "spin"],
    ["a promise that never settles", "hang"],
  ])("%s in pre_tool_call is cut off at the timeout, and the restarted worker serves the next call", async (_, name) => {
    const host = await hostWith([isolated(fixture("misbehaving.ts"))]);
    const events = recordEvents(host.events);
    const before = await workerThreadOf(host);

    const verdict = await host.checkToolCall(call(name));
    expect(verdict).toMatchObject({ action: "block", plugin: "misbehaving" });
    expect(verdict.message).toContain(`plugin "misbehaving" (${fixture("misbehaving.ts")}): pre_tool_call timed out after ${hookTimeoutMs} ms`);
    expect(events.filter((event) => event.type === "hook:timeout")).toHaveLength(1);

    expect(await host.callTool(call("read"))).toMatchObject({ status: "ok", content: "read ran" });
    expect(ran).toEqual([{ tool: "read", args: {} }]);
    expect(await workerThreadOf(host)).not.toBe(before);
  });

  it("an observer stuck in a loop fails open: the call's result stands, and the restarted worker is a fresh instance", async () => {
    const host = await hostWith([isolated(fixture("misbehaving.ts"))]);
    const events = recordEvents(host.events);
    expect(await host.callTool(call("linger"))).toMatchObject({ status: "ok", content: "linger ran" });
    expect(events.find((event) => event.type === "hook:timeout")?.payload).toMatchObject({ plugin: "misbehaving", hook: "post_tool_call" });
    // A restart re-runs the factory, not on_session_start: the session started once.
    const fresh = await host.callTool(call("whoami"));
    expect(fresh.data).toMatchObject({ calls: 1, lifecycle: [] });
  });

  it("fails closed every call in flight on a worker that stops, without waiting for their timeouts", async () => {
    const host = await hostWith([isolated(fixture("misbehaving.ts"))], { hookTimeoutMs: 60_000 });
    const hanging = host.checkToolCall(call("hang"));
    const exiting = host.checkToolCall(call("exit"));
    for (const verdict of await Promise.all([hanging, exiting])) {
      expect(verdict).toMatchObject({ action: "block", plugin: "misbehaving" });
      expect(verdict.message).toContain("the worker exited with code 3");
    }
    expect(await host.callTool(call("read"))).toMatchObject({ status: "ok" });
  });

  it("a worker that exits fails the call closed and is restarted for the next one", async () => {
    const host = await hostWith([isolated(fixture("misbehaving.ts"))]);
    const before = await workerThreadOf(host);
    const result = await host.callTool(call("exit"));
    expect(result).toMatchObject({ status: "blocked", blockedBy: "misbehaving" });
    expect(result.content).toContain("pre_tool_call rejected: the worker exited with code 3");
    expect(await host.callTool(call("read"))).toMatchObject({ status: "ok" });
    expect(await workerThreadOf(host)).not.toBe(before);
  });

  it("an uncaught exception in the worker fails the call closed and the worker restarts", async () => {
    const host = await hostWith([isolated(fixture("misbehaving.ts"))]);
    const verdict = await host.checkToolCall(call("crash"));
    expect(verdict).toMatchObject({ action: "block", plugin: "misbehaving" });
    expect(verdict.message).toContain("the worker crashed: boom in the worker");
    expect(await host.callTool(call("read"))).toMatchObject({ status: "ok" });
  });

  it.each([
    ["throws", "throw", "pre_tool_call rejected: thrown by the hook"],
    ["returns a value that cannot be cloned", "uncloneable", "returned a value that cannot cross the worker boundary"],
  ])("a hook that %s blocks the call (fail closed)", async (_, name, message) => {
    const host = await hostWith([isolated(fixture("misbehaving.ts"))]);
    const verdict = await host.checkToolCall(call(name));
    expect(verdict).toMatchObject({ action: "block", plugin: "misbehaving" });
    expect(verdict.message).toContain(message);
  });

  it("a message outside the protocol, posted by plugin code, fails the call closed and the worker restarts", async () => {
    const host = await hostWith([isolated(fixture("misbehaving.ts"))]);
    const verdict = await host.checkToolCall(call("forge"));
    expect(verdict).toMatchObject({ action: "block", plugin: "misbehaving" });
    expect(verdict.message).toContain("the worker broke the protocol");
    expect(await host.callTool(call("read"))).toMatchObject({ status: "ok" });
  });

  it("arguments that cannot be cloned block the call instead of reaching the worker", async () => {
    const host = await hostWith([isolated(fixture("misbehaving.ts"))]);
    const verdict = await host.checkToolCall(call("read", { when: Symbol("not data") }));
    expect(verdict).toMatchObject({ action: "block", plugin: "misbehaving" });
    expect(verdict.message).toContain("cannot cross the worker boundary");
  });
});

describe("loading an isolated plugin", () => {
  it("a module that throws at top level fails that plugin, naming the file and the reason; the host starts", async () => {
    const host = await hostWith([isolated(fixture("top-level-throw.ts")), isolated(fixture("misbehaving.ts"))]);
    expect(host.plugins[0]).toMatchObject({ name: "top-level-throw", status: "failed" });
    expect(host.plugins[0]!.error).toContain(fixture("top-level-throw.ts"));
    expect(host.plugins[0]!.error).toContain("could not load the module: cannot start: missing API key");
    expect(host.plugins[1]).toMatchObject({ status: "loaded" });
  });

  it("a factory stuck in a loop fails that plugin at the timeout; the host starts", async () => {
    const host = await hostWith([isolated(fixture("spinning-factory.ts")), isolated(fixture("misbehaving.ts"))]);
    expect(host.plugins[0]).toMatchObject({ name: "spinning-factory", status: "failed" });
    expect(host.plugins[0]!.error).toContain(`the plugin factory failed: timed out after ${hookTimeoutMs} ms`);
    expect(host.plugins[1]).toMatchObject({ status: "loaded" });
  });

  it("host events reach the plugin's api.on listeners in the worker, in order; a listener that throws is logged", async () => {
    const warnings: string[] = [];
    const logger = { debug() {}, info() {}, warn: (message: string) => warnings.push(message), error() {} };
    const host = await hostWith([isolated(fixture("subscriber.ts"))], { logger });
    await host.callTool(call("read"));
    await host.callTool(call("write"));
    const result = await host.callTool(call("seen"));
    expect(result.data).toEqual(["tool:end read ok", "tool:blocked write", "tool:end write blocked"]);
    expect(warnings).toContain('[subscriber] a listener for "tool:before" threw: a listener that throws');
  });

  it("options that cannot be cloned fail that plugin, saying so", async () => {
    const host = await hostWith([isolated(fixture("misbehaving.ts"), { label: () => "a function" })]);
    expect(host.plugins[0]).toMatchObject({ status: "failed" });
    expect(host.plugins[0]!.error).toContain("its options cannot cross to a worker thread");
  });

  it("an inline plugin cannot be isolated: createHost says why", async () => {
    const inline = { name: "inline", hooks: {} };
    await expect(hostWith([[inline, {}, { isolation: "worker" }]])).rejects.toThrow(
      /plugins\[0\].*an inline plugin object or function cannot be moved to a worker/,
    );
  });

  it("an unknown isolation mode or setting is an options error naming it", async () => {
    await expect(hostWith([[fixture("misbehaving.ts"), {}, { isolation: "process" } as never]])).rejects.toThrow(/isolation must be "none" or "worker"/);
    await expect(hostWith([[fixture("misbehaving.ts"), {}, { sandbox: true } as never]])).rejects.toThrow(/sandbox is not a plugin setting/);
  });

  it('isolation "none" runs the plugin in the host\'s thread', async () => {
    const host = await hostWith([[fixture("misbehaving.ts"), {}, { isolation: "none" }]]);
    expect(await workerThreadOf(host)).toBe(threadId);
  });

  it("a config file can isolate a plugin by a path relative to the config file", async () => {
    const dir = mkdtempSync(join(tmpDir, "config-"));
    const path = `./${relative(dir, fixture("misbehaving.ts"))}`;
    const config = `export default { plugins: [[${JSON.stringify(path)}, { label: "configured" }, { isolation: "worker" }]] };`;
    writeFileSync(join(dir, "toolgate.config.ts"), config);
    const host = await hostWith([], { configFile: join(dir, "toolgate.config.ts") });
    expect(await workerThreadOf(host)).not.toBe(threadId);
    await host.callTool(call("write", { path: "x" }));
    expect(ran).toEqual([{ tool: "write", args: { path: "/sandbox/x", by: "configured" } }]);
  });
});

describe("closing", () => {
  it("close() terminates the worker: a timer running inside it stops", async () => {
    const file = join(tmpDir, "heartbeat-close.txt");
    writeFileSync(file, "");
    const host = await hostWith([isolated(fixture("heartbeat.ts"), { file })]);
    await waitForGrowth(file);
    await host.close();
    const size = statSync(file).size;
    await sleep(200);
    expect(statSync(file).size).toBe(size);
  });

  it("a process that never calls close() still exits, its worker with it", async () => {
    const file = join(tmpDir, "heartbeat-exit.txt");
    writeFileSync(file, "");
    const tsxLoader = pathToFileURL(join(repoRoot, "node_modules/tsx/dist/loader.mjs")).href;
    const child = spawn(process.execPath, ["--import", tsxLoader, fixture("forgetful-app.ts"), file], { cwd: repoRoot });
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    const killer = setTimeout(() => child.kill(), 15_000);
    const code = await new Promise<number | null>((done) => child.on("close", done));
    clearTimeout(killer);
    expect({ code, stdout: stdout.trim() }).toEqual({ code: 0, stdout: "ok" });
    expect(readFileSync(file, "utf8").length).toBeGreaterThan(0);
  });
});

async function waitForGrowth(file: string): Promise<void> {
  for (let tries = 0; statSync(file).size === 0; tries++) {
    if (tries > 200) throw new Error(`${file} never grew: the plugin's timer did not run`);
    await sleep(10);
  }
}
