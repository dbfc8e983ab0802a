import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { createServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createTempProject, type TempProject } from "../../helpers/temp-project.js";
import { connectThroughProxy, runProxyRaw, type Connection } from "../../helpers/proxy-harness.js";

const policySource = `
export default {
  name: "no-deletes",
  hooks: {
    pre_tool_call(call) {
      if (call.name === "delete_everything") return { action: "block", message: "deleting everything is off limits" };
    },
  },
};
`;

const executed: string[] = [];

/** A fresh MCP server per request: the SDK's stateless Streamable HTTP pattern. */
function createUpstream(): McpServer {
  const server = new McpServer({ name: "http-upstream", version: "2.0.0" });
  server.registerTool("greet", { inputSchema: { name: z.string() }, outputSchema: { greeting: z.string() } }, async ({ name }) => {
    executed.push(`greet ${name}`);
    return { content: [{ type: "text", text: `hello ${name}` }], structuredContent: { greeting: `hello ${name}` } };
  });
  server.registerTool("delete_everything", {}, async () => {
    executed.push("delete_everything");
    return { content: [{ type: "text", text: "deleted" }] };
  });
  return server;
}

let project: TempProject;
let http: HttpServer;
let url: string;
let proxied: Connection;
let direct: Client;

beforeAll(async () => {
  project = createTempProject({ "plugins/no-deletes.mjs": policySource });
  http = createServer(async (request, response) => {
    if (request.headers.authorization !== "Bearer let-me-in") return void response.writeHead(401).end();
    const server = createUpstream();
    const transport = new StreamableHTTPServerTransport({}); // no sessionIdGenerator: stateless;
    response.on("close", () => void Promise.all([transport.close(), server.close()]));
    await server.connect(transport);
    await transport.handleRequest(request, response);
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  direct = new Client({ name: "direct", version: "1.0.0" });
  [proxied] = await Promise.all([
    connectThroughProxy(project.dir, ["--url", url, "--header", "Authorization: Bearer let-me-in"]),
    direct.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: "Bearer let-me-in" } } })),
  ]);
});

afterAll(async () => {
  await Promise.all([proxied?.close(), direct?.close()]);
  await new Promise((resolve) => http?.close(resolve));
  project?.remove();
});

describe("toolgate mcp-proxy --url (Streamable HTTP upstream)", () => {
  it("lists the upstream's tools and returns an allowed call's result untouched", async () => {
    expect(await proxied.client.listTools()).toEqual(await direct.listTools());
    const viaProxy = await proxied.client.callTool({ name: "greet", arguments: { name: "Ada" } });
    expect(viaProxy).toEqual(await direct.callTool({ name: "greet", arguments: { name: "Ada" } }));
    expect(viaProxy.structuredContent).toEqual({ greeting: "hello Ada" });
  });

  it("without the header the upstream refuses, and the proxy reports it and exits 1", async () => {
    const run = await runProxyRaw(project.dir, ["--url", url], () => {});
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`could not connect to the upstream MCP server (${url})`);
  });

  it("a blocked call never reaches the upstream", async () => {
    executed.length = 0;
    const result = await proxied.client.callTool({ name: "delete_everything", arguments: {} });
    expect(result).toEqual({ content: [{ type: "text", text: expect.stringContaining("deleting everything is off limits") }], isError: true });
    expect(executed).toEqual([]);
  });
});
