import { refusedMethod } from "./client-methods.js";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  McpError,
  type CallToolRequest,
  type ListToolsResult,
  type Notification,
  type Result,
  type ServerCapabilities,
} from "@modelcontextprotocol/sdk/types.js";
import type { HostLogger } from "@toolgate/host";
import { forwardRequest, type DownstreamExtra } from "./forward.js";
import type { Policy } from "./policy.js";
import { droppedNotification, type ToolCallGate } from "./tool-call-gate.js";

export interface ProxyServerOptions {
  upstream: Client;
  gate: ToolCallGate<DownstreamExtra>;
  policy: Policy;
  logger: HostLogger;
}

/**
 * The server the MCP client talks to. It presents the upstream's name, version, capabilities and
 * instructions, and has no handler of its own for anything but tools/call and tools/list: every other
 * request and notification, in both directions, goes through the SDK's fallback handlers unchanged.
 */
export function createProxyServer({ upstream, gate, policy, logger }: ProxyServerOptions): Server {
  const instructions = upstream.getInstructions();
  const server = new Server(upstream.getServerVersion() ?? { name: "toolgate-mcp-proxy", version: "0.0.0" }, {
    capabilities: passThroughCapabilities(upstream.getServerCapabilities()),
    ...(instructions === undefined ? {} : { instructions }),
  });
  // The SDK answers logging/setLevel itself when logging is declared; the upstream must hear it instead.
  server.removeRequestHandler("logging/setLevel");

  server.fallbackRequestHandler = async (request, extra) => {
    switch (request.method) {
      case "tools/call":
        return gate.call(policy, request.params as CallToolRequest["params"] | undefined, extra);
      case "tools/list":
        return listVisibleTools(upstream, policy, request.params, extra);
      default: {
        // A loose upstream could read `Tools/Call` as tools/call, past the gate: only the protocol's names go on.
        const refused = refusedMethod(request.method);
        if (refused !== undefined) {
          logger.warn(`mcp-proxy: refused a message from the client: ${refused.message}`);
          throw new McpError(refused.code, refused.message);
        }
        return forwardRequest(upstream, request.method, request.params, extra);
      }
    }
  };
  // The server's own requests to the client (roots/list, sampling, elicitation) go the other way.
  upstream.fallbackRequestHandler = (request, extra) => forwardRequest(server, request.method, request.params, extra);
  server.fallbackNotificationHandler = async (notification) => {
    // No id, so no answer to carry a denial: a lenient server would run it all the same.
    if (notification.method === "tools/call") return logger.warn(`mcp-proxy: ${droppedNotification(notification.params)}`);
    const refused = refusedMethod(notification.method);
    if (refused !== undefined) return logger.warn(`mcp-proxy: refused a message from the client: ${refused.message}`);
    return relay(() => upstream.notification(notification), notification, logger);
  };
  // What the SDK cannot read from the client (a batch, a line that is not JSON-RPC) it drops: say so.
  server.onerror = (error) => logger.warn(`mcp-proxy: client connection: ${error.message}`);
  upstream.fallbackNotificationHandler = (notification) => relay(() => server.notification(notification), notification, logger);
  return server;
}

/**
 * Task-augmented requests are left out: a tool call run as a task would hand its result back through
 * tasks/result, past the gate's view of it.
 */
function passThroughCapabilities(capabilities: ServerCapabilities | undefined): ServerCapabilities {
  const { tasks: _tasks, ...rest } = capabilities ?? {};
  return rest;
}

async function listVisibleTools(upstream: Client, policy: Policy, params: Parameters<typeof forwardRequest>[2], extra: DownstreamExtra): Promise<Result> {
  const page = (await forwardRequest(upstream, "tools/list", params, extra)) as ListToolsResult;
  if (!Array.isArray(page.tools)) return page;
  const visible = page.tools.filter((tool) => !policy.deniedOutright(tool.name));
  return visible.length === page.tools.length ? page : { ...page, tools: visible };
}

async function relay(send: () => Promise<void>, notification: Notification, logger: HostLogger): Promise<void> {
  try {
    await send();
  } catch (error) {
    logger.warn(`mcp-proxy: could not pass on ${notification.method}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
