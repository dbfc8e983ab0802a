import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { text as readBody } from "node:stream/consumers";
import type { AddressInfo } from "node:net";

export interface ResponsesRequest {
  input?: { type?: string; call_id?: string; output?: unknown }[];
  tools?: { name?: string }[];
}

/** The model's next turn: a function call, or a final text. */
export type ResponsesTurn = { call: { name: string; arguments: Record<string, unknown> } } | { text: string };

export interface FakeResponsesApi {
  /** The base URL of the API (`…/v1`). */
  url: string;
  requests: ResponsesRequest[];
  close(): Promise<void>;
}

/** OpenAI's Responses API (`POST /v1/responses`, streamed as SSE) on 127.0.0.1, as much as Codex uses. */
export async function startFakeResponsesApi(script: (request: ResponsesRequest) => ResponsesTurn): Promise<FakeResponsesApi> {
  const requests: ResponsesRequest[] = [];
  let counter = 0;
  const server = createServer((request, response) => {
    void handle(request, response);
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = await readBody(request);
    if (request.method !== "POST" || !(request.url ?? "").startsWith("/v1/responses")) {
      response.writeHead(404, { "content-type": "application/json" });
      response.end("{}");
      return;
    }
    const parsed = JSON.parse(body) as ResponsesRequest;
    requests.push(parsed);
    const id = ++counter;
    const turn = script(parsed);
    const item =
      "call" in turn
        ? { type: "function_call", id: `fc_${id}`, call_id: `call_${id}`, name: turn.call.name, arguments: JSON.stringify(turn.call.arguments) }
        : { type: "message", role: "assistant", id: `msg_${id}`, content: [{ type: "output_text", text: turn.text }] };
    response.writeHead(200, { "content-type": "text/event-stream" });
    const send = (event: Record<string, unknown>) => response.write(`event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`);
    const shell = { id: `resp_${id}`, object: "response", model: "gpt-5.4", created_at: Math.floor(Date.now() / 1000) };
    send({ type: "response.created", response: { ...shell, status: "in_progress", output: [] } });
    send({ type: "response.output_item.added", output_index: 0, item });
    send({ type: "response.output_item.done", output_index: 0, item });
    send({
      type: "response.completed",
      response: { ...shell, status: "completed", output: [item], usage: { input_tokens: 10, output_tokens: 10, total_tokens: 20 } },
    });
    response.end();
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1`, requests, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** The outputs of earlier function calls that a request sends back, in order. */
export function functionOutputs(request: ResponsesRequest): string[] {
  return (request.input ?? [])
    .filter((item) => item.type === "function_call_output")
    .map((item) => (typeof item.output === "string" ? item.output : JSON.stringify(item.output)));
}
