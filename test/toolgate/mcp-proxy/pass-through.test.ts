import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  CreateMessageRequestSchema,
  ErrorCode,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  ResultSchema,
  ToolListChangedNotificationSchema,
  type CallToolResult,
} from "@modelcontextprotocol/sdk/types.js";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../helpers/cli-harness.js";
import { createTempProject, type TempProject } from "../../helpers/temp-project.js";
import { connectStdio, connectThroughProxy, echoServerPath, runProxyRaw, type Connection } from "../../helpers/proxy-harness.js";

const policySource = `
export default {
  name: "echo-policy",
  hooks: {
    pre_tool_call(call) {
      console.log("echo-policy saw", call.name);
      if (String(call.args.text ?? "").includes("forbidden")) return { action: "block", message: "no forbidden echoes" };
    },
  },
};
`;

/** Leaves a file behind when the host closes: the proxy ended its session properly. */
const sessionEndSource = `
import { writeFileSync } from "node:fs";
import { join } from "node:path";
export default (_options, api) => ({
  name: "session-end",
  hooks: { on_session_end() { writeFileSync(join(api.cwd, "session-ended"), String(process.pid)); } },
});
`;

/** Takes its time deciding, so a client can cancel a call while it is still in the gate. */
const slowGateSource = `
export default {
  name: "slow-gate",
  hooks: { async pre_tool_call(call) { if (call.name === "exit") await new Promise((resolve) => setTimeout(resolve, 400)); } },
};
`;

let project: TempProject;
let scratch: string;
let proxied: Connection;
let direct: Connection;

beforeAll(async () => {
  project = createTempProject({ "plugins/echo-policy.mjs": policySource, "plugins/session-end.mjs": sessionEndSource });
  scratch = mkdtempSync(join(tmpdir(), "toolgate-echo-"));
  [proxied, direct] = await Promise.all([
    connectThroughProxy(project.dir, ["--", process.execPath, echoServerPath]),
    connectStdio(process.execPath, [echoServerPath]),
  ]);
});

afterAll(async () => {
  await Promise.all([proxied?.close(), direct?.close()]);
  project?.remove();
  rmSync(scratch, { recursive: true, force: true });
});

describe("what passes through toolgate mcp-proxy untouched", () => {
  it("initialize: the server's name, version, capabilities and instructions", () => {
    expect(proxied.client.getServerVersion()).toEqual({ name: "echo-server", version: "1.2.3" });
    expect(proxied.client.getServerCapabilities()).toEqual(direct.client.getServerCapabilities());
    expect(proxied.client.getInstructions()).toBe("echoes things");
  });

  it("an allowed call's result: images, structuredContent and _meta as the server sent them", async () => {
    const viaProxy = await proxied.client.callTool({ name: "echo", arguments: { text: "hi" } });
    expect(viaProxy).toEqual(await direct.client.callTool({ name: "echo", arguments: { text: "hi" } }));
    expect(viaProxy).toMatchObject({ structuredContent: { echoed: "hi" }, _meta: { "example.com/served-by": "echo-server" } });
    expect(viaProxy.content).toContainEqual({ type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" });
  });

  it("a tool's own isError result", async () => {
    const viaProxy = await proxied.client.callTool({ name: "fail", arguments: {} });
    expect(viaProxy).toEqual({ content: [{ type: "text", text: "it failed" }], isError: true });
  });

  it("a blocked call is a tool result with isError and the reason, not a protocol error", async () => {
    const result = (await proxied.client.callTool({ name: "echo", arguments: { text: "forbidden words" } })) as CallToolResult;
    expect(result).toEqual({ content: [{ type: "text", text: expect.stringContaining("no forbidden echoes") }], isError: true });
    // Its record, in the project's .toolgate/decisions.jsonl, names the proxy as the surface.
    const blockedRecord = async () => {
      const path = project.path(".toolgate/decisions.jsonl");
      // Only whole lines: the proxy may be writing one as it is read.
      const lines = existsSync(path) ? readFileSync(path, "utf8").split("\n").slice(0, -1) : [];
      return lines.map((line) => JSON.parse(line) as Record<string, unknown>).find((record) => record.verdict === "block");
    };
    for (let tries = 0; tries < 100 && (await blockedRecord()) === undefined; tries++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await blockedRecord()).toMatchObject({
      surface: "mcp-proxy",
      tool: "echo",
      kind: "mcp",
      outcome: "blocked",
      source: { kind: "plugin", name: "echo-policy" },
    });
  });

  it("an unknown tool: the server's own JSON-RPC error, message unchanged", async () => {
    const viaProxy = await proxied.client.callTool({ name: "nope", arguments: {} }).catch((error: Error) => error);
    const viaDirect = await direct.client.callTool({ name: "nope", arguments: {} }).catch((error: Error) => error);
    expect(viaProxy).toEqual(viaDirect);
  });

  it("a malformed tools/call: no name is an InvalidParams error; arguments that are not an object are denied", async () => {
    await expect(proxied.client.request({ method: "tools/call", params: { arguments: {} } }, ResultSchema)).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
    });
    const result = await proxied.client.request({ method: "tools/call", params: { name: "echo", arguments: ["hi"] } } as never, ResultSchema);
    expect(result).toEqual({ content: [{ type: "text", text: expect.stringContaining("so it is denied") }], isError: true });
  });

  it("progress notifications reach the client under its own token", async () => {
    const seen: number[] = [];
    const result = await proxied.client.callTool({ name: "count", arguments: { to: 3 } }, undefined, {
      onprogress: (progress) => seen.push(progress.progress),
    });
    expect(result.content).toEqual([{ type: "text", text: "counted to 3" }]);
    expect(seen).toEqual([1, 2, 3]);
    const seenDirect: number[] = [];
    await direct.client.callTool({ name: "count", arguments: { to: 3 } }, undefined, { onprogress: (progress) => seenDirect.push(progress.progress) });
    expect(seenDirect).toEqual(seen);
  });

  it("cancellation reaches the server", async () => {
    const marker = join(scratch, "cancelled");
    const controller = new AbortController();
    const pending = proxied.client.callTool({ name: "wait", arguments: { marker } }, undefined, { signal: controller.signal });
    // Cancelled once the call is running on the server, however long the proxy took to get it there.
    await expect.poll(() => existsSync(`${marker}.started`), { timeout: 30_000 }).toBe(true);
    controller.abort("the user gave up");
    await expect(pending).rejects.toThrow();
    await expect.poll(() => existsSync(marker), { timeout: 30_000 }).toBe(true);
    expect(readFileSync(marker, "utf8")).toBe("cancelled");
  });

  it("server notifications: log messages and tools/list_changed", async () => {
    const logged: unknown[] = [];
    let listChanged = 0;
    proxied.client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => void logged.push(notification.params.data));
    proxied.client.setNotificationHandler(ToolListChangedNotificationSchema, () => void listChanged++);
    await proxied.client.callTool({ name: "announce", arguments: {} });
    await expect.poll(() => listChanged).toBeGreaterThanOrEqual(1);
    expect(logged).toEqual(["announced"]);
  });

  it("a tool the server added after start-up is gated too", async () => {
    await proxied.client.callTool({ name: "announce", arguments: {} });
    expect((await proxied.client.listTools()).tools.map((tool) => tool.name)).toContain("late_echo");
    expect(await proxied.client.callTool({ name: "late_echo", arguments: { text: "hi" } })).toEqual({ content: [{ type: "text", text: "late hi" }] });
    const blocked = await proxied.client.callTool({ name: "late_echo", arguments: { text: "forbidden" } });
    const registered = await proxied.client.callTool({ name: "echo", arguments: { text: "forbidden" } });
    // Worded exactly as for a tool the proxy knew from the start.
    expect(blocked).toEqual(registered);
    expect(blocked).toEqual({ content: [{ type: "text", text: expect.stringContaining("no forbidden echoes") }], isError: true });
  });

  it("the server's requests to the client (roots/list, sampling) reach a client that supports them", async () => {
    const client = new Client({ name: "capable", version: "1.0.0" }, { capabilities: { roots: { listChanged: true }, sampling: {} } });
    client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [{ uri: "file:///work", name: "work" }] }));
    client.setRequestHandler(CreateMessageRequestSchema, () => ({ role: "assistant", content: { type: "text", text: "hi" }, model: "test-model" }));
    const connection = await connectThroughProxy(project.dir, ["--", process.execPath, echoServerPath], client);
    try {
      const result = await client.callTool({ name: "ask_client", arguments: {} });
      expect(JSON.parse((result.content as { text: string }[])[0]!.text)).toEqual({
        roots: [{ uri: "file:///work", name: "work" }],
        sampled: { type: "text", text: "hi" },
      });
    } finally {
      await connection.close();
    }
  });

  it("logging/setLevel, resources and prompts", async () => {
    expect(await proxied.client.setLoggingLevel("warning")).toEqual({});
    expect(await proxied.client.listResources()).toEqual(await direct.client.listResources());
    expect(await proxied.client.readResource({ uri: "echo://greeting" })).toEqual(await direct.client.readResource({ uri: "echo://greeting" }));
    expect(await proxied.client.listPrompts()).toEqual(await direct.client.listPrompts());
    expect(await proxied.client.getPrompt({ name: "greet", arguments: { name: "Ada" } })).toEqual(
      await direct.client.getPrompt({ name: "greet", arguments: { name: "Ada" } }),
    );
  });
});

describe("the proxy process", () => {
  it("stdout carries only JSON-RPC, even with a plugin that logs on every call; a disconnect ends the session", async () => {
    rmSync(project.path("session-ended"), { force: true });
    const run = await runProxyRaw(
      project.dir,
      ["--", process.execPath, echoServerPath],
      (send) => {
        send({ id: 1, method: "tools/call", params: { name: "echo", arguments: { text: "hi" } } });
        send({ id: 2, method: "tools/call", params: { name: "echo", arguments: { text: "forbidden" } } });
      },
      2,
    );
    const lines = run.stdout.trim().split("\n");
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: "2.0" });
    expect(lines.map((line) => JSON.parse(line).id).sort()).toEqual([0, 1, 2]);
    expect(run.stderr).toContain("echo-policy saw echo");
    expect(run.code).toBe(0);
    expect(existsSync(project.path("session-ended"))).toBe(true);
  });

  it("a call the client cancels while the plugins still decide is never forwarded, and gets no answer", async () => {
    // The exit tool ends the server: had the cancelled call been forwarded, the proxy would exit 1.
    const slow = createTempProject({ "plugins/slow.mjs": slowGateSource });
    try {
      const run = await runProxyRaw(
        slow.dir,
        ["--", process.execPath, echoServerPath],
        (send) => {
          send({ id: 1, method: "tools/call", params: { name: "exit", arguments: {} } });
          send({ method: "notifications/cancelled", params: { requestId: 1, reason: "the user gave up" } });
          setTimeout(() => send({ id: 2, method: "tools/call", params: { name: "pid", arguments: {} } }), 800);
        },
        1,
      );
      expect(run.code).toBe(0);
      expect(
        run.stdout
          .trim()
          .split("\n")
          .map((line) => JSON.parse(line).id),
      ).toEqual([0, 2]);
    } finally {
      slow.remove();
    }
  });

  it("a line from the client that is not JSON is reported on stderr and dropped; the session goes on", async () => {
    const run = await runProxyRaw(
      project.dir,
      ["--", process.execPath, echoServerPath],
      (send, writeLine) => {
        writeLine("this is not json");
        send({ id: 1, method: "tools/call", params: { name: "echo", arguments: { text: "still here" } } });
      },
      1,
    );
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("not a JSON-RPC message: this is not json");
    expect(JSON.parse(run.stdout.trim().split("\n")[1]!)).toMatchObject({ id: 1, result: { structuredContent: { echoed: "still here" } } });
  });

  it("SIGTERM ends the session (on_session_end runs) and the upstream with it", async () => {
    const connection = await connectThroughProxy(project.dir, ["--", process.execPath, echoServerPath]);
    const answer = await connection.client.callTool({ name: "pid", arguments: {} });
    const upstreamPid = Number((answer.content as { text: string }[])[0]!.text);
    expect(isRunning(upstreamPid)).toBe(true);
    process.kill(connection.pid!, "SIGTERM");
    await expect.poll(() => isRunning(connection.pid!) || isRunning(upstreamPid), { timeout: 30_000 }).toBe(false);
    expect(readFileSync(project.path("session-ended"), "utf8")).toBe(String(connection.pid));
    await connection.close();
  });

  it("exits non-zero and says so on stderr when the upstream dies", async () => {
    const run = await runProxyRaw(project.dir, ["--", process.execPath, echoServerPath], (send) => {
      send({ id: 1, method: "tools/call", params: { name: "exit", arguments: {} } });
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/upstream MCP server .*echo-server\.mjs.* closed the connection/);
  });

  it("a plugin that fails to load: the proxy still serves, and denies every tool call with the cause", async () => {
    const broken = createTempProject({ "plugins/broken.mjs": "export default { name: 'broken', hooks: { pre_tool_call( } };" });
    const connection = await connectThroughProxy(broken.dir, ["--", process.execPath, echoServerPath]);
    try {
      expect((await connection.client.listTools()).tools.map((tool) => tool.name)).toContain("echo");
      const result = (await connection.client.callTool({ name: "echo", arguments: { text: "hi" } })) as CallToolResult;
      expect(result.isError).toBe(true);
      // The host's own block, in the words every surface uses.
      expect(result.content[0]).toMatchObject({
        text: expect.stringMatching(/^Tool call blocked by plugin "broken": plugin "broken" failed to load: .*broken\.mjs/),
      });
      expect(connection.stderr()).toContain("every tool call is blocked until the plugins load");
    } finally {
      await connection.close();
      broken.remove();
    }
  });

  it("an invalid config: the proxy still serves, and denies every tool call with the cause", async () => {
    const invalid = createTempProject({ "toolgate.config.mjs": "export default { hookTimeoutMs: -1 };" });
    const connection = await connectThroughProxy(invalid.dir, ["--", process.execPath, echoServerPath]);
    try {
      const result = (await connection.client.callTool({ name: "echo", arguments: { text: "hi" } })) as CallToolResult;
      expect(result.isError).toBe(true);
      expect(result.content[0]).toMatchObject({ text: expect.stringMatching(/config could not be loaded: .*hookTimeoutMs/) });
    } finally {
      await connection.close();
      invalid.remove();
    }
  });

  it("bad usage: no upstream, both --url and a command, a malformed --header", async () => {
    const none = await runProxyRaw(project.dir, [], () => {});
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("needs the upstream server");
    expect(none.stdout).toBe("");
    const both = await runProxyRaw(project.dir, ["--url", "http://127.0.0.1:1/mcp", "--", "node"], () => {});
    expect(both.code).toBe(2);
    const badHeader = await runProxyRaw(project.dir, ["--url", "http://127.0.0.1:1/mcp", "--header", "no-colon"], () => {});
    expect(badHeader).toMatchObject({ code: 2, stderr: expect.stringContaining('--header "no-colon" is not "Name: value"') });
  });

  it("an upstream whose tools/list fails: reported, the upstream stopped, exit 1", async () => {
    const unlistable = join(repoRoot, "test/toolgate/mcp-proxy/fixtures/unlistable-server.mjs");
    const run = await runProxyRaw(project.dir, ["--", process.execPath, unlistable], () => {});
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("could not list its tools: MCP error -32603: the tool registry is on fire");
  });

  it("an upstream that cannot start is reported and exits 1", async () => {
    const run = await runProxyRaw(project.dir, ["--", join(scratch, "no-such-server")], () => {});
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("could not connect to the upstream MCP server");
  });
});

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
