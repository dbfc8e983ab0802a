import type { RequestHandlerExtra, RequestOptions } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  McpError,
  ResultSchema,
  type JSONRPCRequest,
  type ProgressNotification,
  type Result,
  type ServerNotification,
  type ServerRequest,
} from "@modelcontextprotocol/sdk/types.js";

/** What the SDK hands a server-side request handler: the downstream request's signal, id and notifier. */
export type DownstreamExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** The other side of a forwarded request: the upstream (a client's request) or the client (a server's). */
interface RequestSender {
  request(request: { method: string; params?: RequestParams }, resultSchema: typeof ResultSchema, options?: RequestOptions): Promise<Result>;
}

/** What forwarding needs from the handler's `extra`, on either side. */
interface ForwardingExtra {
  signal: AbortSignal;
  sendNotification(notification: ProgressNotification): Promise<void>;
}

type RequestParams = NonNullable<JSONRPCRequest["params"]>;

/** The longest timer Node accepts: the proxy sets no deadline of its own, the client's is the one that counts. */
const noTimeout = 2 ** 31 - 1;

/**
 * Sends one downstream request on to the upstream and returns its result as received (only checked to
 * be an object). Cancellation travels with `extra.signal`; progress comes back under the client's own
 * token; an upstream JSON-RPC error is rethrown with its code, message and data unchanged.
 */
export async function forwardRequest(upstream: RequestSender, method: string, params: RequestParams | undefined, extra: ForwardingExtra): Promise<Result> {
  const { progressToken, params: sent } = takeProgressToken(params);
  const options: RequestOptions = { signal: extra.signal, timeout: noTimeout, resetTimeoutOnProgress: true };
  // Progress is relayed in order, and all of it before the response: a client drops progress that
  // arrives after the result.
  let relayed = Promise.resolve();
  if (progressToken !== undefined) {
    options.onprogress = (progress) => {
      const notification = { method: "notifications/progress" as const, params: { ...progress, progressToken } };
      relayed = relayed.then(() => extra.sendNotification(notification)).catch(() => {});
    };
  }
  try {
    const result = await upstream.request(sent === undefined ? { method } : { method, params: sent }, ResultSchema, options);
    await relayed;
    return result;
  } catch (error) {
    throw asPassThroughError(error);
  }
}

/** The SDK puts its own token on requests it tracks progress for; the client's is kept to answer with. */
function takeProgressToken(params: RequestParams | undefined): { progressToken: string | number | undefined; params: RequestParams | undefined } {
  const meta = params?._meta;
  if (params === undefined || meta?.progressToken === undefined) return { progressToken: undefined, params };
  const { progressToken, ...restOfMeta } = meta;
  const { _meta: _dropped, ...rest } = params;
  return { progressToken, params: Object.keys(restOfMeta).length === 0 ? rest : { ...rest, _meta: restOfMeta } };
}

/**
 * The SDK client wraps an upstream error as `McpError("MCP error <code>: <message>")`; re-sent as is, the
 * client would read the prefix twice. This restores the upstream's own message next to its code and data.
 */
function asPassThroughError(error: unknown): unknown {
  if (!(error instanceof McpError)) return error;
  const prefix = `MCP error ${error.code}: `;
  const message = error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
  return Object.assign(new Error(message), { code: error.code, data: error.data });
}
