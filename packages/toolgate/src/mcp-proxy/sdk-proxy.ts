import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { InitializeRequestSchema, type ClientCapabilities, type Implementation, type JSONRPCMessage, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { ToolgateError } from "@toolgate/host";
import { describeThrown } from "@toolgate/host/internal";
import { exitOnce } from "./exit-once.js";
import { forwardRequest, type DownstreamExtra } from "./forward.js";
import { HeldTransport } from "./held-transport.js";
import { openPolicy } from "./policy.js";
import { reserveStdoutForProtocol } from "./protocol-stdout.js";
import { createProxyServer } from "./proxy-server.js";
import { createToolCallGate } from "./tool-call-gate.js";
import type { McpProxyOptions } from "./run-mcp-proxy.js";
import { connectUpstream, describeUpstream, type UpstreamTarget } from "./upstream.js";

/**
 * The proxy built on the MCP SDK's server and client, for an upstream reached over Streamable HTTP:
 * every message is validated and re-sent by the SDK on both sides. Same contract as `runMcpProxy`.
 */
export async function runSdkProxy(options: McpProxyOptions): Promise<number> {
  const { logger } = options;
  const downstream = new HeldTransport(new StdioServerTransport(process.stdin, reserveStdoutForProtocol()));
  const stdinEnded = new Promise<undefined>((resolve) => process.stdin.once("end", () => resolve(undefined)));
  await downstream.listen();
  const first = await Promise.race([downstream.first, stdinEnded]);
  if (first === undefined) return 0;
  const upstreamName = describeUpstream(options.target);
  let upstream: Client;
  let tools: Tool[];
  try {
    upstream = await connect(options.target, { name: "toolgate-mcp-proxy", version: options.version }, clientCapabilitiesOf(first), upstreamName);
    tools = await listAllTools(upstream, upstreamName);
  } catch (error) {
    // Stop reading stdin, or the process would stay up with nothing to serve.
    await downstream.close();
    throw error;
  }
  const gate = createToolCallGate<DownstreamExtra>((params, extra) => forwardRequest(upstream, "tools/call", params, extra));
  const policy = await openPolicy({ cwd: options.cwd, tools: gate.hostTools(tools), logger });
  if (!policy.ok) logger.error(`mcp-proxy: every tool call will be denied: ${policy.reason}`);
  const server = createProxyServer({ upstream, gate, policy, logger });

  return new Promise((resolve) => {
    const end = exitOnce(logger, () => [upstream.close(), policy.host?.close(), server.close()], resolve);
    upstream.onclose = () => end(1, `mcp-proxy: the upstream MCP server (${upstreamName}) closed the connection; exiting`);
    server.onclose = () => end(0);
    server.connect(downstream).catch((error: unknown) => end(1, `mcp-proxy: stdio failed: ${describeThrown(error)}`));
  });
}

async function connect(target: UpstreamTarget, info: Implementation, capabilities: ClientCapabilities, name: string): Promise<Client> {
  try {
    return await connectUpstream(target, info, capabilities);
  } catch (error) {
    throw new ToolgateError("MCP_UPSTREAM_FAILED", `could not connect to the upstream MCP server (${name}): ${describeThrown(error)}`, { cause: error });
  }
}

/** The upstream's tools, every page. A failure stops the upstream: a spawned server must not outlive us. */
async function listAllTools(upstream: Client, name: string): Promise<Tool[]> {
  if (upstream.getServerCapabilities()?.tools === undefined) return [];
  const tools: Tool[] = [];
  let cursor: string | undefined;
  try {
    do {
      const page = await upstream.listTools(cursor === undefined ? undefined : { cursor });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
  } catch (error) {
    await upstream.close().catch(() => {});
    throw new ToolgateError("MCP_UPSTREAM_FAILED", `the upstream MCP server (${name}) could not list its tools: ${describeThrown(error)}`, { cause: error });
  }
  return tools;
}

/**
 * What the client said it supports, among what a server may ask a client for. Nothing when the first
 * message is not an initialize request (the server then will not ask).
 */
function clientCapabilitiesOf(first: JSONRPCMessage): ClientCapabilities {
  const parsed = InitializeRequestSchema.safeParse(first);
  if (!parsed.success) return {};
  const { roots, sampling, elicitation } = parsed.data.params.capabilities;
  return { ...(roots && { roots }), ...(sampling && { sampling }), ...(elicitation && { elicitation }) };
}
