import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { ClientCapabilities, Implementation } from "@modelcontextprotocol/sdk/types.js";

/** The real MCP server behind the proxy: a command to spawn (stdio) or a Streamable HTTP endpoint. */
export type UpstreamTarget = { command: string; args: string[] } | { url: URL; headers?: Record<string, string> };

export function describeUpstream(target: UpstreamTarget): string {
  return "url" in target ? target.url.href : [target.command, ...target.args].join(" ");
}

/**
 * Connects to the upstream server as an MCP client (initialize and initialized included), declaring
 * the capabilities the proxy's own client declared, so the server asks for roots, sampling or
 * elicitation exactly when a direct connection would have let it.
 */
export async function connectUpstream(target: UpstreamTarget, clientInfo: Implementation, capabilities: ClientCapabilities): Promise<Client> {
  const client = new Client(clientInfo, { capabilities });
  await client.connect(createTransport(target));
  return client;
}

function createTransport(target: UpstreamTarget): Transport {
  if ("url" in target) return new StreamableHTTPClientTransport(target.url, target.headers === undefined ? {} : { requestInit: { headers: target.headers } });
  // The upstream gets this process's whole environment (the SDK passes only a few variables by
  // default): MCP client configs set the server's variables on the command they launch, which is us.
  // stderr is inherited, so the upstream's logs land on ours.
  return new StdioClientTransport({ command: target.command, args: target.args, env: stringEnvironment(), stderr: "inherit" });
}

function stringEnvironment(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  return env;
}
