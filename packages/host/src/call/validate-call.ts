import type { ToolCall } from "@toolgate/plugin-sdk";
import { ToolCallSchema } from "@toolgate/plugin-sdk/host";
import * as v from "valibot";
import { ToolgateError } from "../errors.js";
import { summarizeIssues } from "../schema-messages/summarize-issues.js";

/** Throws an INVALID_CALL error naming the field when `call` is not a well-formed tool call. */
export function assertValidCall(call: unknown, where = "tool call"): asserts call is ToolCall {
  if (typeof call !== "object" || call === null || Array.isArray(call))
    throw new ToolgateError("INVALID_CALL", `${where} must be an object with id, name and args`);
  const parsed = v.safeParse(ToolCallSchema, call);
  if (!parsed.success) throw new ToolgateError("INVALID_CALL", `${where} is malformed: ${summarizeIssues(parsed.issues)}`);
}
