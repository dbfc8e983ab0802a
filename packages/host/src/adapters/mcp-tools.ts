import type { ToolCall, ToolDefinition } from "@toolgate/plugin-sdk";

export interface McpToolInfo {
  name: string;
  description?: string | undefined;
  inputSchema?: Record<string, unknown> | undefined;
}

/**
 * The part of an MCP client (`Client` from `@modelcontextprotocol/sdk`) this adapter uses; typed here so
 * the host does not depend on the SDK.
 */
export interface McpClientLike {
  listTools(params?: { cursor?: string }): Promise<{ tools: McpToolInfo[]; nextCursor?: string | undefined }>;
  callTool(
    params: { name: string; arguments?: Record<string, unknown> },
    resultSchema?: undefined,
    options?: { signal?: AbortSignal },
  ): Promise<Record<string, unknown>>;
}

/** An MCP `CallToolResult` exactly as the server sent it (`content`, `structuredContent`, `isError`, `_meta`, …). */
export type McpCallToolResult = Record<string, unknown>;

export interface McpToolsOptions {
  /** Prepended to every tool name, to keep several servers apart (`"notes_"` → `notes_write`). */
  prefix?: string;
  /**
   * Receives the server's raw `CallToolResult`, untouched, for every call that reached the server,
   * with the call as the tool ran it (`call.id` matches the `ToolResult`'s `callId`). For adapters that
   * hand MCP results on as MCP (images, `structuredContent`, `isError`, `_meta` intact). Called before
   * the host builds its `ToolResult`; a blocked call never reaches the server, so it is never called
   * for one.
   */
  onResult?: (result: McpCallToolResult, call: ToolCall) => void;
}

/**
 * Every tool of a connected MCP server as host tools of kind `"mcp"`, so MCP calls pass the gate like
 * any other: a blocked call never reaches the server. A result flagged `isError` becomes an error result.
 */
export async function mcpTools(client: McpClientLike, options: McpToolsOptions = {}): Promise<Record<string, ToolDefinition>> {
  const tools: Record<string, ToolDefinition> = {};
  for (const info of await listAllTools(client)) tools[`${options.prefix ?? ""}${info.name}`] = mcpTool(client, info, options.onResult);
  return tools;
}

async function listAllTools(client: McpClientLike): Promise<McpToolInfo[]> {
  const all: McpToolInfo[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor === undefined ? undefined : { cursor });
    all.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  return all;
}

function mcpTool(client: McpClientLike, info: McpToolInfo, onResult: McpToolsOptions["onResult"]): ToolDefinition {
  return mcpToolDefinition(info, async (args, ctx) => {
    const result = await client.callTool({ name: info.name, arguments: args }, undefined, { signal: ctx.signal });
    onResult?.(result, ctx.call);
    return mcpToolOutput(info.name, result);
  });
}

/** A host tool of kind `"mcp"` with the server's description and input schema. */
export function mcpToolDefinition(info: McpToolInfo, execute: ToolDefinition["execute"]): ToolDefinition {
  const definition: ToolDefinition = { kind: "mcp", execute };
  if (info.description !== undefined) definition.description = info.description;
  if (info.inputSchema !== undefined) definition.parameters = info.inputSchema;
  return definition;
}

/**
 * What the host makes of an MCP result, for plugins and the model: `structuredContent` if any, else the
 * text; a result flagged `isError` throws, so it becomes an error result.
 */
export function mcpToolOutput(name: string, result: McpCallToolResult): unknown {
  const text = textOf(result.content);
  if (result.isError === true) throw new Error(text || `MCP tool "${name}" reported an error`);
  return result.structuredContent ?? text;
}

/** Text parts joined by newlines; other parts (images, resources) as their JSON. */
function textOf(content: unknown): string {
  if (!Array.isArray(content)) return "";
  return content
    .map((part: { type?: unknown; text?: unknown }) => (part?.type === "text" && typeof part.text === "string" ? part.text : JSON.stringify(part)))
    .join("\n");
}
