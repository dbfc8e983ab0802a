import type { PreToolCallDecision } from "@toolgate/plugin-sdk";
import { isPlainObject, PreToolCallDecisionSchema } from "@toolgate/plugin-sdk/host";
import * as v from "valibot";
import { hookReason } from "./hook-input.js";

/** A hook's answer read in any dialect: a decision, no opinion (`undefined`), or why it is not an answer. */
export type DialectResult = { ok: true; decision: PreToolCallDecision | undefined } | { ok: false; reason: string };

// Claude Code's fields that say nothing about the call: an object of only these is no opinion.
const neutralKeys = new Set(["continue", "suppressOutput", "systemMessage", "stopReason"]);

/**
 * Reads a hook's JSON answer in one of four dialects, tried in this order:
 * - toolgate: `{ action: "block" | "ask" | "allow" | "modify", message | reason | args }`;
 * - Claude Code: `{ hookSpecificOutput: { permissionDecision: "deny" | "ask" | "allow", permissionDecisionReason, updatedInput } }`;
 * - Claude Code legacy: `{ decision: "block" | "approve", reason }`;
 * - docker agent: `{ decision: "deny" | "ask" | "allow", reason }`.
 * `fallback` is the message of a block or ask that gives no reason (it names the hook).
 */
export function readHookAnswer(value: unknown, fallback: string): DialectResult {
  if (!isPlainObject(value)) return { ok: false, reason: `the answer is not a JSON object` };
  if ("action" in value) return readToolgate(value);
  if ("hookSpecificOutput" in value) return readClaudeCode(value.hookSpecificOutput, fallback);
  if ("decision" in value) return readDecision(value.decision, value.reason, fallback);
  if (value.continue === false) return { ok: true, decision: { action: "block", message: reasonOr(value.stopReason, fallback) } };
  if (Object.keys(value).every((key) => neutralKeys.has(key))) return { ok: true, decision: undefined };
  return { ok: false, reason: `the answer is not a decision (expected action, decision or hookSpecificOutput.permissionDecision)` };
}

/** Parses text (a command's stdout, an HTTP body): empty is no opinion, anything but JSON is no answer. */
export function readHookText(text: string, fallback: string): DialectResult {
  const trimmed = text.trim();
  if (trimmed === "") return { ok: true, decision: undefined };
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch {
    return { ok: false, reason: `the output is not JSON: ${hookReason(trimmed)}` };
  }
  return readHookAnswer(value, fallback);
}

function readToolgate(value: Record<string, unknown>): DialectResult {
  const parsed = v.safeParse(PreToolCallDecisionSchema, value);
  if (parsed.success) return { ok: true, decision: parsed.output };
  return { ok: false, reason: `not a valid toolgate decision: ${parsed.issues[0]?.message ?? "invalid"}` };
}

function readClaudeCode(output: unknown, fallback: string): DialectResult {
  if (!isPlainObject(output)) return { ok: false, reason: "hookSpecificOutput is not an object" };
  const { permissionDecision: decision, permissionDecisionReason: reason, updatedInput } = output;
  if (updatedInput !== undefined && !isPlainObject(updatedInput)) return { ok: false, reason: "hookSpecificOutput.updatedInput is not an object" };
  if (decision === "deny") return { ok: true, decision: { action: "block", message: reasonOr(reason, fallback) } };
  if (decision === "ask") return { ok: true, decision: { action: "ask", message: reasonOr(reason, fallback) } };
  // Claude Code's updatedInput replaces the input; here it is a modify, and the rules see the result.
  if (updatedInput !== undefined && (decision === "allow" || decision === undefined)) return { ok: true, decision: { action: "modify", args: updatedInput } };
  if (decision === "allow") return { ok: true, decision: typeof reason === "string" && reason !== "" ? { action: "allow", reason } : { action: "allow" } };
  if (decision === undefined) return { ok: true, decision: undefined };
  return { ok: false, reason: `hookSpecificOutput.permissionDecision must be "deny", "ask" or "allow", got ${JSON.stringify(decision)}` };
}

function readDecision(decision: unknown, reason: unknown, fallback: string): DialectResult {
  switch (decision) {
    case "block":
    case "deny":
      return { ok: true, decision: { action: "block", message: reasonOr(reason, fallback) } };
    case "ask":
      return { ok: true, decision: { action: "ask", message: reasonOr(reason, fallback) } };
    case "approve":
    case "allow":
      return { ok: true, decision: typeof reason === "string" && reason.trim() !== "" ? { action: "allow", reason: hookReason(reason) } : { action: "allow" } };
    case undefined:
    case null:
      return { ok: true, decision: undefined };
    default:
      return { ok: false, reason: `decision must be "deny", "ask", "allow", "block" or "approve", got ${JSON.stringify(decision)}` };
  }
}

function reasonOr(reason: unknown, fallback: string): string {
  return typeof reason === "string" && reason.trim() !== "" ? hookReason(reason) : fallback;
}
