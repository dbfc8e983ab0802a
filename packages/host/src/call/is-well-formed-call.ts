import type { ToolCall } from "@toolgate/plugin-sdk";
import { isPlainObject } from "@toolgate/plugin-sdk/host";

/**
 * True when `call` is a tool call that `ToolCallSchema` certainly accepts: non-empty string `id` and `name`,
 * plain-object `args`, `kind` absent or a string. It is a narrower, allocation-free stand-in for the
 * schema on the per-call hot path (the schema builds a dataset and an output copy for every call). On
 * `false` the caller runs the schema anyway, so what is rejected, and every error message, still come
 * from the schema alone.
 */
export function isWellFormedCall(call: unknown): call is ToolCall {
  if (typeof call !== "object" || call === null || Array.isArray(call)) return false;
  const { id, name, args, kind } = call as Record<string, unknown>;
  return isWellFormedFields(id, name, args, kind);
}

/** `isWellFormedCall` on fields already read once (the snapshot reads them into locals). */
export function isWellFormedFields(id: unknown, name: unknown, args: unknown, kind: unknown): boolean {
  return (
    typeof id === "string" && id !== "" && typeof name === "string" && name !== "" && isPlainObject(args) && (kind === undefined || typeof kind === "string")
  );
}
