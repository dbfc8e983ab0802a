import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { createHost, mcpTools, toToolMessage, type Host, type ToolDefinition } from "@toolgate/host";
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createTempProject, type TempProject } from "../helpers/temp-project.js";

const run = promisify(execFile);

/** A policy that blocks any call, of any kind, whose arguments mention "forbidden". */
const policySource = `
export default {
  name: "no-forbidden",
  hooks: {
    pre_tool_call(call) {
      if (JSON.stringify(call.args).includes("forbidden"))
        return { action: "block", message: "the word forbidden is off limits (" + (call.kind ?? "function") + ")" };
    },
  },
};
`;

/** A plugin that contributes its own tool; it must pass the gate like any other. */
const contributorSource = `
export const executions = [];
export default {
  name: "contributor",
  tools: {
    plugin_echo: {
      description: "echoes from a plugin",
      execute(args) {
        globalThis.__pluginToolRuns = (globalThis.__pluginToolRuns ?? 0) + 1;
        return "plugin says " + args.text;
      },
    },
  },
};
`;

let project: TempProject;
let host: Host;
let mcpClient: Client;
const mcpServerRuns: string[] = [];

const shellTool: ToolDefinition = {
  kind: "shell",
  async execute(args) {
    const { stdout } = await run("sh", ["-c", String(args.command)], { cwd: project.dir });
    return stdout;
  },
};

beforeAll(async () => {
  project = createTempProject({ "plugins/no-forbidden.mjs": policySource, "plugins/contributor.mjs": contributorSource });
  const server = new McpServer({ name: "notes", version: "1.0.0" });
  server.registerTool("write_note", { description: "writes a note", inputSchema: { text: z.string() } }, async ({ text }) => {
    mcpServerRuns.push(text);
    return { content: [{ type: "text", text: `saved: ${text}` }] };
  });
  server.registerTool("fail_note", { description: "always fails" }, async () => ({ content: [{ type: "text", text: "disk full" }], isError: true }));
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  mcpClient = new Client({ name: "toolgate-test", version: "1.0.0" });
  await mcpClient.connect(clientTransport);
  host = await createHost({
    cwd: project.dir,
    logger: false,
    tools: { terminal: shellTool, ...(await mcpTools(mcpClient)), add: { execute: (args) => Number(args.a) + Number(args.b) } },
  });
});

afterAll(async () => {
  await host.close();
  await mcpClient.close();
  project.remove();
});

describe("no tool kind bypasses the gate", () => {
  it("policies see the kind a tool was registered with, whatever the call says", async () => {
    const kinds: unknown[] = [];
    const observer = await createHost({
      pluginsDir: false,
      configFile: false,
      logger: false,
      tools: { terminal: shellTool, add: { execute: () => 0 } },
      plugins: [{ name: "kinds", hooks: { pre_tool_call: (call) => void kinds.push(call.kind) } }],
    });
    await observer.callTool({ id: "k1", name: "terminal", args: { command: "true" } });
    await observer.callTool({ id: "k2", name: "terminal", kind: "function", args: { command: "true" } });
    await observer.checkToolCall({ id: "k3", name: "terminal", args: {} });
    await observer.callTools([{ id: "k4", name: "terminal", args: { command: "true" } }]);
    await observer.callTool({ id: "k5", name: "add", args: {} });
    await observer.checkToolCall({ id: "k6", name: "elsewhere", kind: "mcp", args: {} });
    await observer.close();
    expect(kinds).toEqual(["shell", "shell", "shell", "shell", undefined, "mcp"]);
  });

  it("function tools", async () => {
    expect(await host.callTool({ id: "f1", name: "add", args: { a: 2, b: 3 } })).toMatchObject({ status: "ok", content: "5", data: 5 });
    expect(await host.callTool({ id: "f2", name: "add", args: { a: 2, b: 3, note: "forbidden" } })).toMatchObject({ status: "blocked" });
  });

  it("shell commands run as real child processes only when allowed", async () => {
    const allowed = await host.callTool({ id: "s1", name: "terminal", kind: "shell", args: { command: "echo hello from sh" } });
    expect(allowed).toMatchObject({ status: "ok", content: "hello from sh\n" });
    const blocked = await host.callTool({ id: "s2", name: "terminal", kind: "shell", args: { command: "touch forbidden-marker" } });
    expect(blocked.status).toBe("blocked");
    expect(blocked.content).toContain("off limits (shell)");
    expect(existsSync(project.path("forbidden-marker"))).toBe(false);
  });

  it("MCP tools served by a real MCP server never reach the server when blocked", async () => {
    const allowed = await host.callTool({ id: "m1", name: "write_note", kind: "mcp", args: { text: "hello" } });
    expect(allowed).toMatchObject({ status: "ok", content: "saved: hello" });
    const blocked = await host.callTool({ id: "m2", name: "write_note", kind: "mcp", args: { text: "forbidden note" } });
    expect(blocked.status).toBe("blocked");
    expect(mcpServerRuns).toEqual(["hello"]);
    expect(toToolMessage(blocked, "mcp")).toEqual({ content: [{ type: "text", text: blocked.content }], isError: true });
  });

  it("MCP tools keep their description and schema, and an MCP error becomes an error result", async () => {
    const tools = await mcpTools(mcpClient, { prefix: "notes_" });
    expect(Object.keys(tools).sort()).toEqual(["notes_fail_note", "notes_write_note"]);
    expect(tools.notes_write_note).toMatchObject({ kind: "mcp", description: "writes a note", parameters: { type: "object" } });
    expect(await host.callTool({ id: "m3", name: "fail_note", args: {} })).toMatchObject({ status: "error", content: 'Tool "fail_note" failed: disk full' });
  });

  it("tools contributed by plugins", async () => {
    expect(host.toolNames).toContain("plugin_echo");
    const g = globalThis as { __pluginToolRuns?: number };
    g.__pluginToolRuns = 0;
    expect(await host.callTool({ id: "p1", name: "plugin_echo", args: { text: "hi" } })).toMatchObject({ status: "ok", content: "plugin says hi" });
    expect(await host.callTool({ id: "p2", name: "plugin_echo", args: { text: "forbidden" } })).toMatchObject({ status: "blocked" });
    expect(g.__pluginToolRuns).toBe(1);
  });

  it("every kind in one concurrent batch: blocked ones never run, results stay in order", async () => {
    mcpServerRuns.length = 0;
    const results = await host.callTools(
      [
        { id: "b1", name: "write_note", kind: "mcp", args: { text: "forbidden" } },
        { id: "b2", name: "terminal", kind: "shell", args: { command: "echo ok" } },
        { id: "b3", name: "terminal", kind: "shell", args: { command: "echo forbidden" } },
        { id: "b4", name: "write_note", kind: "mcp", args: { text: "fine" } },
      ],
      { concurrency: 4 },
    );
    expect(results.map((result) => [result.callId, result.status])).toEqual([
      ["b1", "blocked"],
      ["b2", "ok"],
      ["b3", "blocked"],
      ["b4", "ok"],
    ]);
    expect(mcpServerRuns).toEqual(["fine"]);
  });
});
