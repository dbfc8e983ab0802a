import * as v from "valibot";
import { isPlainObject } from "./plain-object.js";

const nonEmptyMessage = v.pipe(v.string(), v.nonEmpty("must be a non-empty string"));

/** Stop the call. The tool never runs and the model receives `message` as the tool's result. */
export const BlockResultSchema = v.object({ action: v.literal("block"), message: nonEmptyMessage });
/**
 * Explicit approval, named as the verdict's source. Across plugins the most restrictive answer wins
 * (block > ask > allow), so it never lifts another plugin's `block` or `ask`.
 */
export const AllowResultSchema = v.object({ action: v.literal("allow"), reason: v.optional(v.string()) });
/** The call needs a human: the host's `onAsk` decides, and without one the call is blocked. */
export const AskResultSchema = v.object({ action: v.literal("ask"), message: nonEmptyMessage });
/**
 * Rewrite arguments: shallow-merged into the call's arguments in plugin order. A key set to `undefined`
 * is removed; later plugins see the merged arguments.
 */
export const ModifyResultSchema = v.object({
  action: v.literal("modify"),
  args: v.custom<Record<string, unknown>>(isPlainObject, "must be a plain object"),
  /** The rewrite runs the call inside a sandbox (`@toolgate/sandbox`): the verdict and its record say `contained`. */
  contained: v.optional(v.literal(true)),
});

/** Every opinion a `pre_tool_call` hook may return, as one schema (runtime check and type). */
export const PreToolCallDecisionSchema = v.variant("action", [BlockResultSchema, AllowResultSchema, AskResultSchema, ModifyResultSchema]);

export type BlockResult = v.InferOutput<typeof BlockResultSchema>;
export type AllowResult = v.InferOutput<typeof AllowResultSchema>;
export type AskResult = v.InferOutput<typeof AskResultSchema>;
export type ModifyResult = v.InferOutput<typeof ModifyResultSchema>;
export type PreToolCallDecision = v.InferOutput<typeof PreToolCallDecisionSchema>;

/**
 * What `pre_tool_call` may return. `undefined` means no opinion. Any value that does not match one of
 * these shapes exactly is ignored (treated as no opinion) and reported through `hook:invalid`.
 */
export type PreToolCallResult = void | undefined | PreToolCallDecision;

/** The outcome of one tool call, in provider-neutral form. `toToolMessage` turns it into a message. */
export interface ToolResult {
  callId: string;
  name: string;
  /** `blocked`: a plugin stopped the call and the tool did not run. `error`: the tool failed or is unknown. */
  status: "ok" | "blocked" | "error";
  /** The text the model receives. For a blocked call it names the plugin and holds its message verbatim. */
  content: string;
  /** The tool's return value when it was not a string. */
  data?: unknown;
  /** The plugin that blocked the call. */
  blockedBy?: string;
}

/** Which kind of participant decided: a plugin, a permission rule, or a configured command, HTTP or model hook. */
export type PolicyKind = "plugin" | "rule" | "command" | "http" | "model" | "cedar" | "cel";

/**
 * Who decided a verdict: `{ kind: "plugin", name: "rate-limit" }`, `{ kind: "rule", name: "bash:command=*sudo*" }`,
 * `{ kind: "command", name: "./guards/no-rm.sh" }`, `{ kind: "http", name: url }`, `{ kind: "model", name: "openai:gpt-4o-mini" }`.
 */
export interface PolicySource {
  readonly kind: PolicyKind;
  readonly name: string;
}

/** The gate's decision on one call, after every plugin's `pre_tool_call`. */
export interface Verdict {
  action: "allow" | "block" | "ask";
  /** The block or ask message, or the reason of an explicit allow. */
  message?: string;
  /** The plugin that supplied the deciding result. */
  plugin?: string;
  /** Who supplied the deciding result (a plugin, a rule, a configured hook); absent when nobody had an opinion. */
  source?: PolicySource;
  /** The arguments the tool runs with: the call's own, with every `modify` merged in. */
  args: Record<string, unknown>;
  /** The call runs inside a sandbox: a `modify` marked `contained` rewrote it, and no later `modify` changed what it set. */
  contained?: true;
}
