import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One content block the fake model answers with. */
export type FakeBlock = { type: "text"; text: string } | { type: "tool_use"; name: string; input: Record<string, unknown> };

export interface MessagesRequest {
  model?: string;
  stream?: boolean;
  system?: unknown;
  tools?: { name: string }[];
  messages: { role: string; content: string | Record<string, unknown>[] }[];
}

/**
 * Decides the next assistant turn of the conversation under test. Requests that carry no tools are
 * Claude Code's side calls (titles, summaries): they get `sideAnswer`.
 */
export type Script = (request: MessagesRequest) => FakeBlock[];

export interface FakeAnthropicApi {
  url: string;
  /** Every request to /v1/messages, in order. */
  requests: MessagesRequest[];
  close(): Promise<void>;
}

/** The Anthropic Messages API, as much of it as Claude Code uses, on 127.0.0.1: streaming (SSE) or not. */
export async function startFakeAnthropicApi(script: Script, sideAnswer = "ok"): Promise<FakeAnthropicApi> {
  const requests: MessagesRequest[] = [];
  let counter = 0;
  const server: Server = createServer((request, response) => {
    void handle(request, response);
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = await readBody(request);
    const path = (request.url ?? "").split("?")[0];
    if (request.method === "POST" && path === "/v1/messages/count_tokens") return json(response, { input_tokens: 100 });
    if (request.method !== "POST" || path !== "/v1/messages") return json(response, {}, 200);
    const parsed = JSON.parse(body) as MessagesRequest;
    requests.push(parsed);
    const isConversation = (parsed.tools ?? []).some((tool) => tool.name === "Bash");
    const blocks = isConversation ? script(parsed) : [{ type: "text" as const, text: sideAnswer }];
    const message = toMessage(blocks, parsed.model ?? "claude-sonnet-4-5", ++counter);
    if (parsed.stream) return stream(response, message);
    return json(response, message);
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

interface Message {
  id: string;
  type: "message";
  role: "assistant";
  model: string;
  content: Record<string, unknown>[];
  stop_reason: "end_turn" | "tool_use";
  stop_sequence: null;
  usage: { input_tokens: number; output_tokens: number };
}

function toMessage(blocks: FakeBlock[], model: string, counter: number): Message {
  const content = blocks.map((block, index) =>
    block.type === "text"
      ? { type: "text", text: block.text }
      : { type: "tool_use", id: `toolu_fake_${counter}_${index}`, name: block.name, input: block.input },
  );
  const stopReason = blocks.some((block) => block.type === "tool_use") ? "tool_use" : "end_turn";
  return {
    id: `msg_fake_${counter}`,
    type: "message",
    role: "assistant",
    model,
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 10 },
  };
}

/** The message as Server-Sent Events, block by block, the way the real API streams it. */
function stream(response: ServerResponse, message: Message): void {
  response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  const send = (event: string, data: unknown) => response.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  send("message_start", { type: "message_start", message: { ...message, content: [], stop_reason: null, usage: { input_tokens: 10, output_tokens: 1 } } });
  message.content.forEach((block, index) => {
    if (block.type === "text") {
      send("content_block_start", { type: "content_block_start", index, content_block: { type: "text", text: "" } });
      send("content_block_delta", { type: "content_block_delta", index, delta: { type: "text_delta", text: block.text } });
    } else {
      send("content_block_start", { type: "content_block_start", index, content_block: { type: "tool_use", id: block.id, name: block.name, input: {} } });
      send("content_block_delta", { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) } });
    }
    send("content_block_stop", { type: "content_block_stop", index });
  });
  send("message_delta", { type: "message_delta", delta: { stop_reason: message.stop_reason, stop_sequence: null }, usage: { output_tokens: 10 } });
  send("message_stop", { type: "message_stop" });
  response.end();
}

function json(response: ServerResponse, value: unknown, status = 200): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(value));
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (body += chunk));
    request.on("end", () => resolve(body));
    request.on("error", reject);
  });
}

/** The tool_result blocks of a request, in order, with their text. */
export function toolResults(request: MessagesRequest): { toolUseId: string; text: string; isError: boolean }[] {
  return request.messages.flatMap((message) =>
    typeof message.content === "string"
      ? []
      : message.content
          .filter((block) => block.type === "tool_result")
          .map((block) => ({ toolUseId: String(block.tool_use_id), text: textOf(block.content), isError: block.is_error === true })),
  );
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((part: { text?: unknown }) => (typeof part.text === "string" ? part.text : "")).join("");
  return "";
}
