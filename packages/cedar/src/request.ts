import type { PolicyContext } from "@toolgate/plugin-sdk";
import { readsEverything, type ContextReads } from "./context-reads.js";

export interface EntityRef {
  type: string;
  id: string;
}

/** A Cedar request: who (principal), does what (action), to what (resource), in which context. */
export interface CedarRequest {
  principal: EntityRef;
  action: EntityRef;
  resource: EntityRef;
  context: Record<string, CedarValue>;
}

export type CedarValue = string | number | boolean | CedarValue[] | { [key: string]: CedarValue };

/** The principal when the surface does not name the agent (an app calling the library, serve without `agent`). */
export const unknownAgent = "unknown";

/**
 * Maps a call to a Cedar request: principal `Agent::"<agent>"`, action `Action::"<tool>"`, resource
 * `Tool::"<tool>"`, and the context as Cedar's `context`. `reads`: what the policies read of it; a
 * value no policy reads goes as `true`, so every key is still there (`has` and Cedar's messages
 * about missing attributes are unchanged) but a file's content is not copied into Cedar on each call;
 * where no such message could name them, unread values are left out (see everyReadPresent).
 */
export function toCedarRequest(context: PolicyContext, reads: ContextReads = readsEverything): CedarRequest {
  return {
    principal: { type: "Agent", id: context.agent ?? unknownAgent },
    action: { type: "Action", id: context.tool },
    resource: { type: "Tool", id: context.tool },
    context: toCedarRecord(context as unknown as Record<string, unknown>, reads),
  };
}

/**
 * JSON to Cedar values. Cedar has no null and no fractions: a `null` or `undefined` attribute is left
 * out (so `has` is false), a number that is not a whole number within Cedar's 64-bit range becomes its
 * decimal text. A record key Cedar's JSON format reserves (`__entity`, `__extn`) is left out too, so an
 * argument cannot smuggle in an entity reference.
 */
function toCedarValue(value: unknown): CedarValue | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") return Number.isSafeInteger(value) ? value : String(value);
  if (typeof value === "bigint") return value.toString();
  if (Array.isArray(value)) return value.map(toCedarValue).filter((item) => item !== undefined);
  if (typeof value === "object") return toCedarRecord(value as Record<string, unknown>, readsEverything);
  return undefined;
}

function toCedarRecord(record: Record<string, unknown>, reads: ContextReads): Record<string, CedarValue> {
  const out: Record<string, CedarValue> = {};
  const unreadUnseen = !reads.whole && everyReadPresent(record, reads);
  for (const [key, value] of Object.entries(record)) {
    if (isReservedKey(key)) continue;
    const keyReads = reads.whole ? reads : reads.children.get(key);
    if (keyReads === undefined && unreadUnseen) continue;
    const converted = projected(value, keyReads);
    if (converted !== undefined) out[key] = converted;
  }
  return out;
}

/**
 * Whether every attribute the policies read of the record is there. Then the others cannot be seen
 * (Cedar lists a record's attributes only in the help of an error about a missing one) and are left
 * out, which spares copying them into Cedar; otherwise they go as `true`, so that help reads the same.
 */
function everyReadPresent(record: Record<string, unknown>, reads: ContextReads): boolean {
  for (const key of reads.children.keys()) if (isReservedKey(key) || !Object.hasOwn(record, key) || !keptByCedar(record[key])) return false;
  return true;
}

/** The value as far as `reads` looks into it; `true` in place of one no policy looks into (when Cedar would see it at all). */
function projected(value: unknown, reads: ContextReads | undefined): CedarValue | undefined {
  if (reads === undefined || (!reads.whole && reads.children.size === 0)) return keptByCedar(value) ? true : undefined;
  if (reads.whole || typeof value !== "object" || value === null || Array.isArray(value)) return toCedarValue(value);
  return toCedarRecord(value as Record<string, unknown>, reads);
}

/** Whether `toCedarValue` keeps the value (an attribute Cedar's `has` sees). */
export function keptByCedar(value: unknown): boolean {
  return value !== null && value !== undefined && ["string", "boolean", "number", "bigint", "object"].includes(typeof value);
}

/** A record key Cedar's JSON format reserves: left out, so an argument cannot smuggle in an entity reference. */
export function isReservedKey(key: string): boolean {
  return key === "__entity" || key === "__extn" || key === "__expr";
}

/** Deeper than this, toolgate does not vouch for Cedar taking the request (its JSON reader stops at a depth of its own). */
const maxCheckedDepth = 32;

/**
 * Whether Cedar takes the request as it is: every string in it, keys included, is well-formed (cedar-wasm
 * throws on a lone surrogate) and it is not deeply nested. When toolgate knows Cedar's answer without
 * asking, it asks all the same unless this holds, so a request Cedar refuses is still refused.
 */
export function takenByCedar(request: CedarRequest): boolean {
  const ids = [request.principal.id, request.action.id, request.resource.id];
  return ids.every(wellFormed) && plainValue(request.context, 1);
}

function plainValue(value: CedarValue, depth: number): boolean {
  if (typeof value === "string") return wellFormed(value);
  if (typeof value !== "object") return true;
  if (depth > maxCheckedDepth) return false;
  if (Array.isArray(value)) return value.every((item) => plainValue(item, depth + 1));
  for (const [key, item] of Object.entries(value)) if (!wellFormed(key) || !plainValue(item, depth + 1)) return false;
  return true;
}

const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Cedar's strings are Unicode scalar values: a lone surrogate is refused. */
export function wellFormed(text: string): boolean {
  return !loneSurrogate.test(text);
}
