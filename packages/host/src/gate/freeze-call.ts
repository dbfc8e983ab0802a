import { isPlainObject, type ToolArgs, type ToolCall } from "@toolgate/plugin-sdk";

/**
 * A deep copy of plain objects and arrays, frozen all the way down: what hooks see and what a verdict
 * carries, so neither a hook nor the caller can change it afterwards. Other objects (a Date, a class
 * instance) are kept by reference.
 */
export function freezeArgs(args: ToolArgs): ToolArgs {
  return frozenCopy(args) as ToolArgs;
}

/** The read-only call a hook receives, around arguments already frozen by `freezeArgs`. */
export function callView(call: ToolCall, frozenArgs: ToolArgs): ToolCall {
  const view: { -readonly [Key in keyof ToolCall]: ToolCall[Key] } = { id: call.id, name: call.name, args: frozenArgs };
  if (call.kind !== undefined) view.kind = call.kind;
  return Object.freeze(view);
}

export function freezeCall(call: ToolCall, args: ToolArgs): ToolCall {
  return callView(call, freezeArgs(args));
}

/** A deep, unfrozen copy for the tool's `execute`, which owns its arguments. */
export function thawArgs(args: ToolArgs): ToolArgs {
  return plainCopy(args) as ToolArgs;
}

function frozenCopy(value: unknown): unknown {
  if (Array.isArray(value)) return Object.freeze(value.map(frozenCopy));
  if (!isPlainObject(value)) return value;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) copy[key] = frozenCopy(value[key]);
  return Object.freeze(copy);
}

function plainCopy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plainCopy);
  if (!isPlainObject(value)) return value;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) copy[key] = plainCopy(value[key]);
  return copy;
}
