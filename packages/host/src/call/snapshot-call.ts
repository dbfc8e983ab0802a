import { randomUUID } from "node:crypto";
import type { SessionInfo, ToolArgs, ToolCall } from "@toolgate/plugin-sdk";
import { describeThrown, isToolgateError, ToolgateError } from "../errors.js";
import { ArgsShapeError, type ArgsCopy, copyArgs } from "./copy-args.js";
import { isWellFormedFields } from "./is-well-formed-call.js";
import type { CallSnapshot } from "./snapshot.js";
import { assertValidCall } from "./validate-call.js";

/** The kind a registered tool was declared with, or undefined for a tool the host does not know. */
type KindOf = (name: string) => string | undefined;

/**
 * Reads a caller's call once, into the host's own frozen snapshot: `id`, `name`, `kind` and `args` are
 * each read a single time and the arguments deep-copied, so a getter that answers differently on a
 * second read cannot change the call after the hooks judged it. Throws INVALID_CALL naming the field
 * for a malformed call, and naming `args` for cyclic, too deep or unreadable arguments. For a tool this
 * host runs, the kind it was registered with is what policies see: a call cannot pass a shell off as a
 * plain function. A call with no `id` at all (frameworks that give none) gets a fresh
 * `toolgate_<uuid>`; an `id` that is present must be a non-empty string. With `freezeCall` false the
 * call object (not its arguments) is left for `shownCall` to freeze when it first leaves the host.
 */
export function snapshotCall(call: unknown, kindOf: KindOf, session: SessionInfo, where = "tool call", freezeCall = true): CallSnapshot {
  try {
    return readCall(call, kindOf, session, where, freezeCall);
  } catch (error) {
    if (isToolgateError(error)) throw error;
    throw new ToolgateError("INVALID_CALL", `${where} could not be read: ${describeThrown(error)}`, { cause: error });
  }
}

function readCall(call: unknown, kindOf: KindOf, session: SessionInfo, where: string, freezeCall: boolean): CallSnapshot {
  if (typeof call !== "object" || call === null || Array.isArray(call))
    throw new ToolgateError("INVALID_CALL", `${where} must be an object with id, name and args`);
  const source = call as Record<string, unknown>;
  // Each field read exactly once, into locals (no intermediate object per call); a getter that throws is named.
  let field = "id";
  let id: unknown;
  let name: unknown;
  let args: unknown;
  let kind: unknown;
  try {
    id = source.id;
    if (id === undefined) id = generatedCallId();
    field = "name";
    name = source.name;
    field = "args";
    args = source.args;
    field = "kind";
    kind = source.kind;
  } catch (error) {
    throw new ToolgateError("INVALID_CALL", `${where}: ${field} could not be read: ${describeThrown(error)}`, { cause: error });
  }
  // The schema runs only when the quick check cannot vouch for the call, so it alone words the errors.
  if (!isWellFormedFields(id, name, args, kind)) assertValidCall({ id, name, args, kind }, where);
  let copy: ArgsCopy;
  try {
    copy = copyArgs(args as ToolArgs, true);
  } catch (error) {
    const reason = error instanceof ArgsShapeError ? error.message : `args could not be read: ${describeThrown(error)}`;
    throw new ToolgateError("INVALID_CALL", `${where} is malformed: ${reason}`, { cause: error });
  }
  const checkedKind = kindOf(name as string) ?? (kind as string | undefined);
  const snapshot: { -readonly [Key in keyof ToolCall]: ToolCall[Key] } = { id: id as string, name: name as string, args: copy.args };
  if (checkedKind !== undefined) snapshot.kind = checkedKind;
  return { call: freezeCall ? Object.freeze(snapshot) : snapshot, bytes: copy.bytes, session, callFrozen: freezeCall };
}

function generatedCallId(): string {
  return `toolgate_${randomUUID()}`;
}

/** Snapshots a whole batch before anything runs: every call well-formed, no id twice. */
export function snapshotBatch(calls: unknown, kindOf: KindOf, session: SessionInfo): CallSnapshot[] {
  if (!Array.isArray(calls)) throw new ToolgateError("INVALID_CALL", "callTools expects an array of tool calls");
  const seen = new Map<string, number>();
  const snapshots: CallSnapshot[] = [];
  for (let index = 0; index < calls.length; index++) {
    const snapshot = snapshotCall(calls[index], kindOf, session, `tool call [${index}]`);
    const { id } = snapshot.call;
    const earlier = seen.get(id);
    if (earlier !== undefined)
      throw new ToolgateError("INVALID_CALL", `tool call [${index}] repeats the id "${id}" of tool call [${earlier}]; every call in a batch needs its own id`);
    seen.set(id, index);
    snapshots.push(snapshot);
  }
  return snapshots;
}
