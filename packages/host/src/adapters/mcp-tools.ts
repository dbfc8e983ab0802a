import type { ToolDefinition } from "@toolgate/plugin-sdk";

interface McpToolInfo {
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

export interface McpToolsOptions {
  /** Prepended to every tool name, to keep several servers apart (`"notes_"` → `notes_write`). */
  prefix?: string;
}

/**
 * Every tool of a connected MCP server as host tools of kind `"mcp"`, so MCP calls pass the gate like
 * any other: a blocked call never reaches the server. A result flagged `isError` becomes an error result.
 */
export async function mcpTools(client: McpClientLike, options: McpToolsOptions = {}): Promise<Record<string, ToolDefinition>> {
  const tools: Record<string, ToolDefinition> = {};
  for (const info of await listAllTools(client)) tools[`${options.prefix ?? ""}${info.name}`] = mcpTool(client, info);
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

function mcpTool(client: McpClientLike, info: McpToolInfo): ToolDefinition {
  const definition: ToolDefinition = {
    kind: "mcp",
    async execute(args, ctx) {
      const result = await client.callTool({ name: info.name, arguments: args }, undefined, { signal: ctx.signal });
      const text = textOf(result.content);
      if (result.isError === true) throw new Error(text || `MCP tool "${info.name}" reported an error`);
      return result.structuredContent ?? text;
    },
  };
  if (info.description !== undefined) definition.description = info.description;
  if (info.inputSchema !== undefined) definition.parameters = info.inputSchema;
  return definition;
}

/** Text parts joined by newlines; other parts (images, resources) as their JSON. */
function textOf(content: unknown): string {
  if (!Array.isArray(content)) return "";
  return content
    .map((part: { type?: unknown; text?: unknown }) => (part?.type === "text" && typeof part.text === "string" ? part.text : JSON.stringify(part)))
    .join("\n");
}
