import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { text as readBody } from "node:stream/consumers";
import type { AddressInfo } from "node:net";

export interface GeminiPart {
  text?: string;
  functionCall?: { name: string; args: Record<string, unknown> };
  functionResponse?: { name: string; response: Record<string, unknown> };
}

export interface GenerateRequest {
  contents?: { role: string; parts?: GeminiPart[] }[];
  tools?: unknown[];
  generationConfig?: { responseMimeType?: string; responseJsonSchema?: JsonSchema; responseSchema?: JsonSchema };
}

interface JsonSchema {
  type?: string;
  enum?: unknown[];
  properties?: Record<string, JsonSchema>;
}

/** Decides the model's next parts for a request of the conversation under test (one that offers run_shell_command). */
export type GeminiScript = (request: GenerateRequest) => GeminiPart[];

export interface FakeGeminiApi {
  url: string;
  requests: GenerateRequest[];
  close(): Promise<void>;
}

/**
 * The Gemini API (`generateContent`, `streamGenerateContent?alt=sse`, `countTokens`) on 127.0.0.1, as
 * much as Gemini CLI uses. Side requests that ask for JSON (its task router) get a value of their schema.
 */
export async function startFakeGeminiApi(script: GeminiScript): Promise<FakeGeminiApi> {
  const requests: GenerateRequest[] = [];
  const server = createServer((request, response) => {
    void handle(request, response);
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const text = await readBody(request);
    const url = request.url ?? "";
    if (url.includes(":countTokens")) return sendJson(response, { totalTokens: 10 });
    const parsed = (text ? JSON.parse(text) : {}) as GenerateRequest;
    const isConversation = JSON.stringify(parsed.tools ?? []).includes("run_shell_command");
    if (isConversation) requests.push(parsed);
    const schema = parsed.generationConfig?.responseJsonSchema ?? parsed.generationConfig?.responseSchema;
    const parts = isConversation ? script(parsed) : [{ text: schema ? JSON.stringify(sampleOf(schema)) : "ok" }];
    const chunk = {
      candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 10, totalTokenCount: 20 },
    };
    if (!url.includes("alt=sse")) return sendJson(response, chunk);
    response.writeHead(200, { "content-type": "text/event-stream" });
    response.end(`data: ${JSON.stringify(chunk)}\r\n\r\n`);
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, requests, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** The function responses the CLI sent back, in order. */
export function functionResponses(request: GenerateRequest): { name: string; text: string }[] {
  return (request.contents ?? []).flatMap((content) =>
    (content.parts ?? []).flatMap((part) =>
      part.functionResponse ? [{ name: part.functionResponse.name, text: JSON.stringify(part.functionResponse.response) }] : [],
    ),
  );
}

function sampleOf(schema: JsonSchema): unknown {
  if (schema.enum) return schema.enum[0];
  switch ((schema.type ?? "").toUpperCase()) {
    case "OBJECT":
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([key, value]) => [key, sampleOf(value)]));
    case "ARRAY":
      return [];
    case "INTEGER":
    case "NUMBER":
      return 10;
    case "BOOLEAN":
      return false;
    default:
      return "x";
  }
}

function sendJson(response: ServerResponse, value: unknown): void {
  response.writeHead(200, { "content-type": "application/json" });
  response.end(JSON.stringify(value));
}
