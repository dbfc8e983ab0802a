/**
 * What kind of tool a call targets. Policy plugins can use it to treat shells or MCP servers apart;
 * the gate itself treats every kind the same.
 * @default "function"
 */
export type ToolKind = "function" | "shell" | "mcp" | "plugin" | (string & {});

/** Arguments of a tool call: a plain JSON-like object. */
export type ToolArgs = Record<string, unknown>;

/**
 * One tool call as the model asked for it. Hooks receive it frozen: a plugin changes arguments only by
 * returning `{ action: "modify", args }`.
 */
export interface ToolCall {
  /** The provider's call id (`tool_call_id`, `tool_use_id`, …). Unique within one batch. */
  readonly id: string;
  /** The tool's name as the model used it. */
  readonly name: string;
  /** The arguments; hooks see the result of every earlier `modify`. */
  readonly args: Readonly<ToolArgs>;
  /** The tool's kind, when the caller knows it. */
  readonly kind?: ToolKind;
}
