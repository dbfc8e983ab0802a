/**
 * The methods an MCP client sends a server (the protocol's, as the MCP SDK 1.32 lists them). Anything
 * else is not relayed: a server that reads method names leniently (`Tools/Call`, `tools/call `,
 * `tools//call`) would run a call the proxy never gated.
 */
const clientMethods = new Set([
  "initialize",
  "ping",
  "tools/list",
  "tools/call",
  "resources/list",
  "resources/templates/list",
  "resources/read",
  "resources/subscribe",
  "resources/unsubscribe",
  "prompts/list",
  "prompts/get",
  "completion/complete",
  "logging/setLevel",
  "tasks/get",
  "tasks/list",
  "tasks/result",
  "tasks/cancel",
  "notifications/initialized",
  "notifications/cancelled",
  "notifications/progress",
  "notifications/roots/list_changed",
  "notifications/tasks/status",
  "notifications/elicitation/complete",
]);

/** Why a client message's `method` is refused, or undefined when it is exactly one of the protocol's. */
export function refusedMethod(method: unknown): { code: number; message: string } | undefined {
  if (typeof method !== "string")
    return { code: -32600, message: `Invalid Request: the method must be a string (got ${method === null ? "null" : typeof method})` };
  if (clientMethods.has(method)) return undefined;
  return {
    code: -32601,
    message: `Method not found: toolgate mcp-proxy relays only MCP's own method names, exactly as spelled (got ${JSON.stringify(method.slice(0, 100))})`,
  };
}
