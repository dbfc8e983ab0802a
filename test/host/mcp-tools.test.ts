import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { createHost, mcpTools, type McpCallToolResult, type ToolCall } from "@toolgate/host";
import { describe, expect, it } from "vitest";
import { z } from "zod";

async function connectedClient(): Promise<Client> {
  const server = new McpServer({ name: "pictures", version: "1.0.0" });
  server.registerTool("draw", { inputSchema: { what: z.string() } }, async ({ what }) => ({
    content: [
      { type: "text", text: `a ${what}` },
      { type: "image", data: "R0lGODlh", mimeType: "image/gif" },
    ],
    structuredContent: { drawn: what },
    _meta: { "example.com/seed": 42 },
  }));
  server.registerTool("smudge", {}, async () => ({ content: [{ type: "text", text: "ink everywhere" }], isError: true }));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(clientSide);
  return client;
}

describe("mcpTools(client, { onResult }) keeps the raw CallToolResult", () => {
  it("hands over the server's result untouched, with the call as it ran, and never for a blocked call", async () => {
    const client = await connectedClient();
    const raw: [McpCallToolResult, ToolCall][] = [];
    const host = await createHost({
      pluginsDir: false,
      configFile: false,
      logger: false,
      tools: await mcpTools(client, { onResult: (result, call) => raw.push([result, call]) }),
      plugins: [{ name: "no-owls", hooks: { pre_tool_call: (call) => (call.args.what === "owl" ? { action: "block", message: "no owls" } : undefined) } }],
    });
    const drawn = await host.callTool({ id: "c1", name: "draw", args: { what: "cat" } });
    const smudged = await host.callTool({ id: "c2", name: "smudge", args: {} });
    const blocked = await host.callTool({ id: "c3", name: "draw", args: { what: "owl" } });
    await host.close();

    expect(drawn).toMatchObject({ status: "ok", data: { drawn: "cat" } });
    expect(smudged).toMatchObject({ status: "error", content: expect.stringContaining("ink everywhere") });
    expect(blocked.status).toBe("blocked");
    expect(raw.map(([, call]) => [call.id, call.name, call.kind])).toEqual([
      ["c1", "draw", "mcp"],
      ["c2", "smudge", "mcp"],
    ]);
    expect(raw[0]![0]).toEqual(await client.callTool({ name: "draw", arguments: { what: "cat" } }));
    expect(raw[1]![0]).toEqual({ content: [{ type: "text", text: "ink everywhere" }], isError: true });
    await client.close();
  });
});
