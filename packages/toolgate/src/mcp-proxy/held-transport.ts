import type { Transport, TransportSendOptions } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/**
 * The client's side of the proxy, read from before the proxy's server exists: the client's first
 * message (`initialize`) says what it supports, and the upstream must be told that when the proxy
 * connects to it. Messages are held until the server connects (`start`), then handed over in order.
 */
export class HeldTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** The client's first message. */
  readonly first: Promise<JSONRPCMessage>;
  readonly #inner: Transport;
  readonly #held: JSONRPCMessage[] = [];
  #released = false;

  constructor(inner: Transport) {
    this.#inner = inner;
    let resolveFirst: (message: JSONRPCMessage) => void = () => {};
    this.first = new Promise((resolve) => (resolveFirst = resolve));
    inner.onmessage = (message) => {
      if (this.#released) return this.onmessage?.(message);
      this.#held.push(message);
      resolveFirst(message);
    };
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
  }

  /** Starts reading from the client. */
  listen(): Promise<void> {
    return this.#inner.start();
  }

  /** Called by the server's `connect`, after it set its handlers: hands over what the client sent so far. */
  async start(): Promise<void> {
    this.#released = true;
    for (const message of this.#held.splice(0)) this.onmessage?.(message);
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.#inner.send(message, options);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }
}
