/** A JSON-RPC message as read off the wire: parsed, not validated. */
export interface RpcMessage {
  jsonrpc?: unknown;
  id?: RpcId;
  method?: unknown;
  params?: unknown;
  result?: unknown;
  error?: unknown;
}

export type RpcId = string | number;

/** The message in `line`, or undefined when the line is not a JSON object. */
export function parseMessage(line: string): RpcMessage | undefined {
  return asMessage(parseJson(line));
}

/** The JSON value in `line`, or undefined when the line is not JSON. */
export function parseJson(line: string): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch {
    return undefined;
  }
}

/** `value` when it is a JSON object (one message), else undefined: a batch (an array) is not one message. */
export function asMessage(value: unknown): RpcMessage | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as RpcMessage) : undefined;
}

export function isRequest(message: RpcMessage): boolean {
  return typeof message.method === "string" && message.id !== undefined;
}

export function isResponse(message: RpcMessage): boolean {
  return message.method === undefined && message.id !== undefined && ("result" in message || "error" in message);
}

export function requestLine(id: RpcId, method: string, params: unknown): string {
  return JSON.stringify(params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params });
}

export function resultLine(id: RpcId, result: unknown): string {
  return JSON.stringify({ jsonrpc: "2.0", id, result });
}

export function errorLine(id: RpcId, error: unknown): string {
  return JSON.stringify({ jsonrpc: "2.0", id, error });
}

/** An upstream's JSON-RPC error, kept as it came so it reaches the client unchanged. */
export class UpstreamRpcError extends Error {
  readonly error: unknown;
  constructor(error: unknown) {
    const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
    super(`MCP error ${String(code)}: ${String(message)}`);
    this.error = error;
  }
}

/**
 * A thrown value as a JSON-RPC error object: an upstream's own error unchanged, anything else as the
 * MCP SDK's server words it (the error's `code` when it has one, else InternalError).
 */
export function asRpcError(thrown: unknown): unknown {
  if (thrown instanceof UpstreamRpcError) return thrown.error;
  const { code, message, data } = (thrown ?? {}) as { code?: unknown; message?: unknown; data?: unknown };
  return {
    code: Number.isSafeInteger(code) ? code : -32603,
    message: typeof message === "string" ? message : "Internal error",
    ...(data === undefined ? {} : { data }),
  };
}
