import type * as v from "valibot";
import type { ToolCallSchema } from "./schemas.js";

/**
 * What kind of tool a call targets. Policy plugins can use it to treat shells or MCP servers apart;
 * the gate itself treats every kind the same.
 * @default "function"
 */
export type ToolKind = "function" | "shell" | "mcp" | "plugin" | (string & {});

/** Arguments of a tool call: a plain JSON-like object. */
export type ToolArgs = Record<string, unknown>;

/**
 * One tool call as the model asked for it (`ToolCallSchema`: `id`, `name`, `args`, optional `kind`).
 * Hooks receive it frozen: a plugin changes arguments only by returning `{ action: "modify", args }`.
 */
export type ToolCall = Readonly<v.InferOutput<typeof ToolCallSchema>>;
