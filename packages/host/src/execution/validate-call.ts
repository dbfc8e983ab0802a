import { ToolCallSchema, type ToolCall } from "@toolgate/plugin-sdk";
import * as v from "valibot";
import { ToolgateError } from "../errors.js";
import { summarizeIssues } from "../validation/summarize-issues.js";

/** Throws an INVALID_CALL error naming the field when `call` is not a well-formed tool call. */
export function assertValidCall(call: unknown, where = "tool call"): asserts call is ToolCall {
  if (typeof call !== "object" || call === null || Array.isArray(call))
    throw new ToolgateError("INVALID_CALL", `${where} must be an object with id, name and args`);
  const parsed = v.safeParse(ToolCallSchema, call);
  if (!parsed.success) throw new ToolgateError("INVALID_CALL", `${where} is malformed: ${summarizeIssues(parsed.issues)}`);
}

/** Checks a whole batch before anything runs: every call well-formed, no id twice. */
export function assertValidBatch(calls: unknown): asserts calls is ToolCall[] {
  if (!Array.isArray(calls)) throw new ToolgateError("INVALID_CALL", "callTools expects an array of tool calls");
  const seen = new Map<string, number>();
  calls.forEach((call, index) => {
    assertValidCall(call, `tool call [${index}]`);
    const earlier = seen.get(call.id);
    if (earlier !== undefined)
      throw new ToolgateError("INVALID_CALL", `tool call [${index}] repeats the id "${call.id}" of tool call [${earlier}]; every call in a batch needs its own id`);
    seen.set(call.id, index);
  });
}
