import type { PreToolCallDecision } from "@toolgate/plugin-sdk";
import { PreToolCallDecisionSchema } from "@toolgate/plugin-sdk/host";
import * as v from "valibot";
import { validationMessage } from "../schema-messages/summarize-issues.js";

/** A `pre_tool_call` result read against the contract: the decision, or why it is not one. */
export type ReadDecision = { ok: true; decision: PreToolCallDecision } | { ok: false; reason: string };

/** Reads what a `pre_tool_call` returned (not undefined, not a failure); throws only if reading the value throws. */
export function readDecision(outcome: unknown): ReadDecision {
  const parsed = v.safeParse(PreToolCallDecisionSchema, outcome);
  return parsed.success ? { ok: true, decision: parsed.output } : { ok: false, reason: validationMessage(parsed.issues) };
}
