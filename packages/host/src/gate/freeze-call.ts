import { isPlainObject, type ToolArgs, type ToolCall } from "@toolgate/plugin-sdk";

/** The read-only view of a call that hooks receive: a deep copy, frozen, so no hook can change the caller's objects. */
export function freezeCall(call: ToolCall, args: ToolArgs): ToolCall {
  const frozen: { -readonly [Key in keyof ToolCall]: ToolCall[Key] } = { id: call.id, name: call.name, args: frozenCopy(args) as ToolArgs };
  if (call.kind !== undefined) frozen.kind = call.kind;
  return Object.freeze(frozen);
}

function frozenCopy(value: unknown): unknown {
  if (Array.isArray(value)) return Object.freeze(value.map(frozenCopy));
  if (!isPlainObject(value)) return value;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) copy[key] = frozenCopy(value[key]);
  return Object.freeze(copy);
}
