import type { ToolResult } from "@toolgate/plugin-sdk";
import { jsonCopy } from "../json-copy.js";

/** OpenAI Chat Completions: a `tool` role message. */
export interface OpenAIToolMessage {
  role: "tool";
  tool_call_id: string;
  content: string;
}

/** OpenAI Responses: a `function_call_output` input item. */
export interface ResponsesToolOutput {
  type: "function_call_output";
  call_id: string;
  output: string;
}

/** Anthropic Messages: a `tool_result` content block. */
export interface AnthropicToolResult {
  type: "tool_result";
  tool_use_id: string;
  content: string;
  is_error: boolean;
}

/** MCP: a `CallToolResult`. */
export interface McpToolResult {
  content: [{ type: "text"; text: string }];
  isError: boolean;
}

/** Vercel AI SDK: a `tool-result` part; a blocked call is an `execution-denied` output. */
export interface AiSdkToolResult {
  type: "tool-result";
  toolCallId: string;
  toolName: string;
  output:
    | { type: "text"; value: string }
    | { type: "json"; value: unknown }
    | { type: "error-text"; value: string }
    | { type: "execution-denied"; reason: string };
}

export interface ToolMessageFormats {
  openai: OpenAIToolMessage;
  responses: ResponsesToolOutput;
  anthropic: AnthropicToolResult;
  mcp: McpToolResult;
  "ai-sdk": AiSdkToolResult;
}

export type ToolMessageFormat = keyof ToolMessageFormats;

const formatters: { [Format in ToolMessageFormat]: (result: ToolResult) => ToolMessageFormats[Format] } = {
  openai: (result) => ({ role: "tool", tool_call_id: result.callId, content: contentOf(result) }),
  responses: (result) => ({ type: "function_call_output", call_id: result.callId, output: contentOf(result) }),
  anthropic: (result) => ({ type: "tool_result", tool_use_id: result.callId, content: contentOf(result), is_error: result.status !== "ok" }),
  mcp: (result) => ({ content: [{ type: "text", text: contentOf(result) }], isError: result.status !== "ok" }),
  "ai-sdk": (result) => ({ type: "tool-result", toolCallId: result.callId, toolName: result.name, output: aiSdkOutput(result) }),
};

export const toolMessageFormats = Object.keys(formatters) as ToolMessageFormat[];

/** The message the model receives for a tool result, in the provider's format. */
export function toToolMessage<Format extends ToolMessageFormat>(result: ToolResult, format: Format): ToolMessageFormats[Format] {
  const formatter = formatters[format];
  if (!formatter) throw new TypeError(`unknown tool message format "${String(format)}"; use one of ${toolMessageFormats.join(", ")}`);
  return formatter(result);
}

function aiSdkOutput(result: ToolResult): AiSdkToolResult["output"] {
  if (result.status === "blocked") return { type: "execution-denied", reason: contentOf(result) };
  if (result.status === "error") return { type: "error-text", value: contentOf(result) };
  const json = result.data === undefined ? undefined : jsonCopy(result.data);
  return json?.ok && json.value !== undefined ? { type: "json", value: json.value } : { type: "text", value: contentOf(result) };
}

/**
 * The result's text, always a string: a message must serialise whatever the result holds, so a result
 * built by hand with other content is turned into text, never passed on.
 */
function contentOf(result: ToolResult): string {
  const { content } = result;
  if (typeof content === "string") return content;
  const json = jsonCopy(content);
  return json.ok && json.value !== undefined ? json.text : safeString(content);
}

function safeString(value: unknown): string {
  try {
    return String(value);
  } catch {
    return "";
  }
}
