import type { ToolArgs, ToolCall } from "@toolgate/plugin-sdk";
import { copyArgs } from "./copy-args.js";

/**
 * A deep copy of plain objects and arrays, frozen all the way down: what hooks see and what a verdict
 * carries, so neither a hook nor the caller can change it afterwards. Other objects (a Date, a class
 * instance) are kept by reference. Throws `ArgsShapeError` for cyclic, too deep or too large arguments.
 */
export function freezeArgs(args: ToolArgs): ToolArgs {
  return copyArgs(args, true).args;
}

/** The read-only call a hook receives, around arguments already frozen by `freezeArgs`. */
export function callView(call: ToolCall, frozenArgs: ToolArgs): ToolCall {
  const view: { -readonly [Key in keyof ToolCall]: ToolCall[Key] } = { id: call.id, name: call.name, args: frozenArgs };
  if (call.kind !== undefined) view.kind = call.kind;
  return Object.freeze(view);
}

/** A deep, unfrozen copy for the tool's `execute`, which owns its arguments. */
export function thawArgs(args: ToolArgs): ToolArgs {
  return copyArgs(args, false).args;
}
