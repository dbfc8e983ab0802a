import {
  LATEST_PROTOCOL_VERSION,
  McpError,
  SUPPORTED_PROTOCOL_VERSIONS,
  type ClientCapabilities,
  type Implementation,
  type ServerCapabilities,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { isResponse, parseMessage, requestLine } from "./json-rpc.js";
import type { StdioUpstream } from "./stdio-upstream.js";

/** What the upstream said about itself when the proxy initialised it. */
export interface UpstreamIdentity {
  serverInfo: Implementation;
  capabilities: ServerCapabilities;
  instructions?: string;
}

/**
 * The proxy's own exchange with a stdio upstream before the client's traffic is relayed: initialize,
 * notifications/initialized, tools/list. Anything else the server sends meanwhile (a log message, a
 * request to the client) is kept, in order, for the relay to pass on (`held`).
 */
export class UpstreamHandshake {
  /** Lines from the server that were not answers to the proxy's requests. */
  readonly held: string[] = [];
  readonly #upstream: StdioUpstream;
  readonly #pending = new Map<string, { resolve: (result: unknown) => void; reject: (error: Error) => void }>();
  #sequence = 0;

  constructor(upstream: StdioUpstream) {
    this.#upstream = upstream;
    upstream.onLine = (line) => this.#receive(line);
    upstream.onClose = () => {
      for (const { reject } of this.#pending.values()) reject(new Error("the server closed the connection"));
      this.#pending.clear();
    };
  }

  async initialize(clientInfo: Implementation, capabilities: ClientCapabilities): Promise<UpstreamIdentity> {
    const result = (await this.#request("initialize", { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities, clientInfo })) as {
      protocolVersion?: string;
    } & UpstreamIdentity;
    if (!SUPPORTED_PROTOCOL_VERSIONS.includes(result.protocolVersion ?? ""))
      throw new Error(`Server's protocol version is not supported: ${result.protocolVersion}`);
    this.#upstream.send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
    return {
      serverInfo: result.serverInfo,
      capabilities: result.capabilities ?? {},
      ...(result.instructions === undefined ? {} : { instructions: result.instructions }),
    };
  }

  /** Every page of the server's tools. */
  async listTools(): Promise<Tool[]> {
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = (await this.#request("tools/list", cursor === undefined ? undefined : { cursor })) as { tools?: Tool[]; nextCursor?: string };
      tools.push(...(page.tools ?? []));
      cursor = page.nextCursor;
    } while (cursor);
    return tools;
  }

  #request(method: string, params: unknown): Promise<unknown> {
    const id = `toolgate-mcp-proxy-${++this.#sequence}`;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#upstream.send(requestLine(id, method, params));
    });
  }

  #receive(line: string): void {
    const message = parseMessage(line);
    const waiting = message !== undefined && isResponse(message) && typeof message.id === "string" ? this.#pending.get(message.id) : undefined;
    if (waiting === undefined) {
      this.held.push(line);
      return;
    }
    this.#pending.delete(message!.id as string);
    if ("error" in message!) {
      const { code, message: text, data } = (message!.error ?? {}) as { code?: number; message?: string; data?: unknown };
      waiting.reject(new McpError(code ?? -32603, text ?? "", data));
    } else waiting.resolve(message!.result);
  }
}
