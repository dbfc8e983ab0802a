import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { describeThrown, ToolgateError } from "../errors.js";
import type { HostLogger } from "../logger.js";
import { openPolicy } from "./policy.js";
import { reserveStdoutForProtocol } from "./protocol-stdout.js";
import { createProxyServer } from "./proxy-server.js";
import { createToolCallGate } from "./tool-call-gate.js";
import { connectUpstream, describeUpstream, type UpstreamTarget } from "./upstream.js";

export interface McpProxyOptions {
  /** Where the plugins and the config are found. */
  cwd: string;
  target: UpstreamTarget;
  logger: HostLogger;
  /** This proxy's version, as the client info it shows the upstream. */
  version: string;
}

/**
 * Serves MCP on stdio in front of the upstream until either side goes away, and resolves with the exit
 * code: 0 when the client disconnects, 1 when the upstream dies or the client's stream breaks. Rejects
 * with `MCP_UPSTREAM_FAILED` when the upstream cannot be started or reached.
 */
export async function runMcpProxy(options: McpProxyOptions): Promise<number> {
  const { logger } = options;
  const protocolOut = reserveStdoutForProtocol();
  const upstreamName = describeUpstream(options.target);
  const upstream = await connect(options.target, options.version, upstreamName);
  const tools = await listAllTools(upstream, upstreamName);
  const gate = createToolCallGate(upstream);
  const policy = await openPolicy({ cwd: options.cwd, tools: gate.hostTools(tools), logger });
  if (!policy.ok) logger.error(`mcp-proxy: every tool call will be denied: ${policy.reason}`);
  const server = createProxyServer({ upstream, gate, policy, logger });

  return new Promise((resolve) => {
    let ended = false;
    const end = (code: number, message?: string) => {
      if (ended) return;
      ended = true;
      if (message !== undefined) logger.error(message);
      void Promise.allSettled([upstream.close(), policy.host?.close(), server.close()]).then(() => resolve(code));
    };
    upstream.onclose = () => end(1, `mcp-proxy: the upstream MCP server (${upstreamName}) closed the connection; exiting`);
    server.onclose = () => end(0);
    process.stdin.once("end", () => end(0));
    // Clients stop servers with a signal as often as by closing stdin; the upstream is stopped either way.
    process.once("SIGTERM", () => end(0));
    process.once("SIGINT", () => end(0));
    server.connect(new StdioServerTransport(process.stdin, protocolOut)).catch((error: unknown) => end(1, `mcp-proxy: stdio failed: ${describeThrown(error)}`));
  });
}

async function connect(target: UpstreamTarget, version: string, name: string): Promise<Client> {
  try {
    return await connectUpstream(target, { name: "toolgate-mcp-proxy", version });
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
