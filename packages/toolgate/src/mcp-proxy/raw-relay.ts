import { refusedMethod } from "./client-methods.js";
import type { Result } from "@modelcontextprotocol/sdk/types.js";
import type { HostLogger } from "@toolgate/host";
import {
  asRpcError,
  errorLine,
  isRequest,
  isResponse,
  asMessage,
  parseJson,
  parseMessage,
  requestLine,
  resultLine,
  UpstreamRpcError,
  type RpcId,
  type RpcMessage,
} from "./json-rpc.js";
import type { Policy } from "./policy.js";
import type { StdioUpstream } from "./stdio-upstream.js";
import { droppedNotification, type CallParams, type ToolCallGate } from "./tool-call-gate.js";

/** The error each request of a client's batch gets. */
const batchRefused = {
  code: -32600,
  message: "toolgate mcp-proxy does not relay JSON-RPC batches: send each message on its own line",
} as const;

/** A client's tools/call in flight through the gate. */
export interface GatedCall {
  id: RpcId;
  /** The client cancelled it: it is not forwarded any more, and its answer is not sent. */
  cancelled: boolean;
}

interface UpstreamAnswer {
  resolve(answer: { result: Result; line: string }): void;
  reject(error: unknown): void;
}

export interface RawRelayOptions {
  upstream: StdioUpstream;
  /** Writes one line to the client (the real stdout). */
  toClient: (line: string) => void;
  logger: HostLogger;
}

/**
 * Relays JSON-RPC between the client and a stdio upstream as lines: each line is parsed once, to route
 * it, and passed on as it came (not validated, not re-serialised), both ways: requests, responses,
 * notifications (progress, cancellation, list changes), and the server's requests to the client.
 * Only two messages are handled: a client's `tools/call` goes through the gate, and is forwarded under
 * the client's own id when allowed (so its progress and cancellation pass through as they are); a
 * `tools/list` answer is filtered when a deny rule hides a tool. Nothing else carries a tools/call to the
 * upstream: one sent as a notification (no id) is dropped, and a batch is refused whole; both reported.
 */
export class RawRelay {
  readonly #upstream: StdioUpstream;
  readonly #toClient: (line: string) => void;
  readonly #logger: HostLogger;
  /** The client's tools/call requests in the gate, by id. */
  readonly #calls = new Map<RpcId, GatedCall>();
  /** Forwarded tools/call requests waiting for the upstream's answer, by id. */
  readonly #answers = new Map<RpcId, UpstreamAnswer>();
  /** The upstream's answers to allowed calls, as received, to pass on without serialising again. */
  readonly #answerLines = new Map<RpcId, { result: Result; line: string }>();
  /** Forwarded tools/list requests, by id. */
  readonly #listings = new Set<RpcId>();
  #gate: ToolCallGate<GatedCall> | undefined;
  #policy: Policy | undefined;

  constructor({ upstream, toClient, logger }: RawRelayOptions) {
    this.#upstream = upstream;
    this.#toClient = toClient;
    this.#logger = logger;
  }

  /** The gate's way to the upstream: the call under the client's id, answered with the raw result. */
  readonly forwardCall = (params: CallParams, call: GatedCall): Promise<Result> => {
    if (call.cancelled) return Promise.reject(new Error("the client cancelled the call"));
    return new Promise<{ result: Result; line: string }>((resolve, reject) => {
      this.#answers.set(call.id, { resolve, reject });
      this.#upstream.send(requestLine(call.id, "tools/call", params));
    }).then((answer) => {
      this.#answerLines.set(call.id, answer);
      return answer.result;
    });
  };

  /** Starts relaying: from here on every line from either side is routed. */
  start(gate: ToolCallGate<GatedCall>, policy: Policy): void {
    this.#gate = gate;
    this.#policy = policy;
    this.#upstream.onLine = (line) => this.fromUpstream(line);
  }

  fromClient(line: string): void {
    const value = parseJson(line);
    // A batch is never passed on as it came: the tools/call in it would reach the server ungated.
    if (Array.isArray(value)) return this.#refuseBatch(value);
    const message = asMessage(value);
    if (message === undefined) {
      this.#logger.warn(`mcp-proxy: dropped a line from the client that is not a JSON-RPC message: ${line.slice(0, 200)}`);
      return;
    }
    const refused = "method" in message ? refusedMethod(message.method) : undefined;
    if (refused !== undefined) return this.#refuseMethod(message, refused);
    if (isRequest(message)) {
      if (message.method === "tools/call") return this.#gateCall(message.id!, message.params);
      if (message.method === "tools/list") this.#listings.add(message.id!);
    } else if (message.method === "tools/call") {
      // No id, so no answer to carry a denial: a lenient server would run it all the same.
      this.#logger.warn(`mcp-proxy: ${droppedNotification(message.params)}`);
      return;
    } else if (message.method === "notifications/cancelled") {
      this.#cancel((message.params as { requestId?: RpcId } | undefined)?.requestId);
    } else if (message.method === "notifications/initialized") {
      // The proxy initialised the upstream itself; a second one would confuse it.
      return;
    }
    this.#upstream.send(line);
  }

  fromUpstream(line: string): void {
    const message = parseMessage(line);
    if (message === undefined) {
      this.#logger.warn(`mcp-proxy: dropped a line from the upstream that is not a JSON-RPC message: ${line.slice(0, 200)}`);
      return;
    }
    if (isResponse(message)) {
      const waiting = this.#answers.get(message.id!);
      if (waiting !== undefined) {
        this.#answers.delete(message.id!);
        if ("error" in message) waiting.reject(new UpstreamRpcError(message.error));
        else waiting.resolve({ result: message.result as Result, line });
        return;
      }
      if (this.#listings.delete(message.id!)) return this.#toClient(this.#visibleTools(message) ?? line);
    }
    this.#toClient(line);
  }

  #gateCall(id: RpcId, params: unknown): void {
    const call: GatedCall = { id, cancelled: false };
    this.#calls.set(id, call);
    this.#gate!.call(this.#policy!, params as CallParams | undefined, call).then(
      (result) => this.#answer(call, () => this.#answerLine(id, result)),
      (error: unknown) => this.#answer(call, () => errorLine(id, asRpcError(error))),
    );
  }

  /** Each request in a batch gets an Invalid Request error; nothing in it reaches the upstream. */
  /** An answer for a request (an id the client can match), a line on stderr for a notification: never the upstream. */
  #refuseMethod(message: RpcMessage, refused: { code: number; message: string }): void {
    const { id } = message;
    this.#logger.warn(`mcp-proxy: refused a message from the client: ${refused.message}`);
    if (typeof id === "string" || typeof id === "number") this.#toClient(errorLine(id, refused));
  }

  #refuseBatch(batch: unknown[]): void {
    const requests = batch.map(asMessage).filter((message): message is RpcMessage => message !== undefined && isRequest(message));
    this.#logger.warn(
      `mcp-proxy: dropped a JSON-RPC batch of ${batch.length} message(s) from the client: batches are not relayed (MCP since 2025-06-18 has none); ${requests.length} request(s) in it answered with an error`,
    );
    for (const request of requests) this.#toClient(errorLine(request.id!, batchRefused));
  }

  /** The upstream's own line when the result is its answer, untouched; otherwise the result serialised. */
  #answerLine(id: RpcId, result: Result): string {
    const received = this.#answerLines.get(id);
    return received !== undefined && received.result === result ? received.line : resultLine(id, result);
  }

  #answer(call: GatedCall, line: () => string): void {
    this.#calls.delete(call.id);
    if (!call.cancelled) this.#toClient(line());
    this.#answerLines.delete(call.id);
  }

  /** A cancelled call is not forwarded any more, and a forwarded one stops waiting for its answer. */
  #cancel(id: RpcId | undefined): void {
    const call = id === undefined ? undefined : this.#calls.get(id);
    if (call === undefined) return;
    call.cancelled = true;
    const waiting = this.#answers.get(call.id);
    this.#answers.delete(call.id);
    waiting?.reject(new Error("the client cancelled the call"));
  }

  /** The tools/list answer without the tools a deny rule forbids outright, or undefined when none is. */
  #visibleTools(message: RpcMessage): string | undefined {
    const policy = this.#policy;
    const page = message.result as { tools?: unknown } | undefined;
    if (policy === undefined || page === undefined || !Array.isArray(page.tools)) return undefined;
    const visible = page.tools.filter((tool: { name?: unknown }) => !policy.deniedOutright(String(tool.name)));
    return visible.length === page.tools.length ? undefined : resultLine(message.id!, { ...page, tools: visible });
  }
}
