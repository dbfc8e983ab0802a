import type { Reservation } from "@toolgate/plugin-sdk";
import { type CallEnd, type ReserveRequest, storeEpsilon as epsilon } from "@toolgate/plugin-sdk/host";

/**
 * One amount counted at time `t`; `id` is the call id of a reservation, `pending` until it settles or
 * until `due`, when it settles as a failed call; `keep`: a failed call commits it (`onError: "commit"`).
 */
interface Entry {
  t: number;
  a: number;
  id?: string;
  pending?: true;
  due?: number;
  keep?: true;
}

interface WindowLog {
  entries: Entry[];
  /** The last window used, so idle logs can be collected. */
  windowMs?: number;
  /** No pending entry is due before this (it may be earlier than the real first one): until then nothing is looked at. */
  nextDue?: number;
}

/** Everything one namespace holds. Plain JSON, so the file backend can write it as is. */
export interface NamespaceState {
  values: Record<string, { v: string; exp?: number }>;
  windows: Record<string, WindowLog>;
}

export function emptyState(): NamespaceState {
  return { values: {}, windows: {} };
}

// The operations below are the memory and file backends' semantics; redis-scripts.ts is the same in Lua.

export function getValue(state: NamespaceState, key: string, now: number): string | undefined {
  const held = state.values[key];
  if (!held) return undefined;
  if (held.exp !== undefined && held.exp <= now) {
    delete state.values[key];
    return undefined;
  }
  return held.v;
}

export function setValue(state: NamespaceState, key: string, value: string, ttlMs: number | undefined, now: number): void {
  state.values[key] = ttlMs === undefined ? { v: value } : { v: value, exp: now + ttlMs };
}

export function deleteKey(state: NamespaceState, key: string): void {
  delete state.values[key];
  delete state.windows[key];
}

export function increment(state: NamespaceState, key: string, amount: number, windowMs: number | undefined, now: number): number {
  const log = openLog(state, key, windowMs, now);
  insert(log.entries, { t: now, a: amount });
  return total(log.entries);
}

export function reserve(state: NamespaceState, key: string, request: ReserveRequest): Reservation {
  const { amount, callId, limit, windowMs, now } = request;
  // A dry run decides on what the window holds now and changes nothing, not even what has expired.
  const log = request.dryRun ? readLog(state, key, windowMs, now) : openLog(state, key, windowMs, now);
  const used = total(log.entries);
  if (log.entries.some((entry) => entry.id === callId)) return { ok: true, used, limit, duplicate: true, retryInMs: undefined };
  if (used + amount <= limit + epsilon) {
    if (!request.dryRun) {
      const entry = pendingEntry(request);
      insert(log.entries, entry);
      log.nextDue = Math.min(log.nextDue ?? Number.POSITIVE_INFINITY, entry.due!);
    }
    return { ok: true, used: used + amount, limit, duplicate: false, retryInMs: undefined };
  }
  return { ok: false, used, limit, duplicate: false, retryInMs: retryIn(log.entries, used, request) };
}

function pendingEntry({ now, amount, callId, pendingTtlMs, onError }: ReserveRequest): Entry {
  const entry: Entry = { t: now, a: amount, id: callId, pending: true, due: now + pendingTtlMs };
  if (onError === "commit") entry.keep = true;
  return entry;
}

/** Settles the pending reservation `callId` holds on `key`; `true` if there was one. */
export function settle(state: NamespaceState, key: string, callId: string, end: CallEnd, now: number): boolean {
  const entries = state.windows[key]?.entries;
  const index = entries?.findIndex((entry) => entry.id === callId && entry.pending) ?? -1;
  if (!entries || index === -1) return false;
  const entry = entries[index]!;
  // Reported after its time to live: it already counts as failed, whatever the report says.
  const settled = entry.due !== undefined && entry.due <= now ? "error" : end;
  if (settled === "ok" || (settled === "error" && entry.keep)) entries[index] = committed(entry);
  else entries.splice(index, 1);
  return true;
}

/** Settles every pending reservation of `callId` in the namespace, on any key; `true` if there was one. */
export function settleCall(state: NamespaceState, callId: string, end: CallEnd, now: number): boolean {
  let settled = false;
  for (const key of Object.keys(state.windows)) if (settle(state, key, callId, end, now)) settled = true;
  return settled;
}

// A new object rather than deleted properties: entries of one shape keep the sums over them fast.
function committed({ t, a, id }: Entry): Entry {
  return id === undefined ? { t, a } : { t, a, id };
}

/** Drops expired values and windows, so a file does not grow with keys nobody uses any more. */
export function collect(state: NamespaceState, now: number): void {
  for (const [key, held] of Object.entries(state.values)) if (held.exp !== undefined && held.exp <= now) delete state.values[key];
  for (const [key, log] of Object.entries(state.windows)) {
    prune(log, now);
    if (log.entries.length === 0) delete state.windows[key];
  }
}

function openLog(state: NamespaceState, key: string, windowMs: number | undefined, now: number): WindowLog {
  let log = state.windows[key];
  if (!log) state.windows[key] = log = { entries: [] };
  if (windowMs === undefined) delete log.windowMs;
  else log.windowMs = windowMs;
  prune(log, now);
  return log;
}

/** The window as it stands at `now`, without changing the state. */
function readLog(state: NamespaceState, key: string, windowMs: number | undefined, now: number): WindowLog {
  const held = state.windows[key];
  const log: WindowLog = { entries: held ? held.entries.map((entry) => ({ ...entry })) : [] };
  if (windowMs !== undefined) log.windowMs = windowMs;
  if (held?.nextDue !== undefined) log.nextDue = held.nextDue;
  prune(log, now);
  return log;
}

function prune(log: WindowLog, now: number): void {
  if (log.nextDue !== undefined && log.nextDue <= now) settleOverdue(log, now);
  if (log.windowMs === undefined) return;
  const start = now - log.windowMs;
  let expired = 0;
  while (expired < log.entries.length && log.entries[expired]!.t <= start) expired++;
  if (expired > 0) log.entries.splice(0, expired);
}

/** Pending reservations nobody settled within their time to live settle as failed calls. */
function settleOverdue(log: WindowLog, now: number): void {
  const { entries } = log;
  let nextDue = Number.POSITIVE_INFINITY;
  for (let index = entries.length - 1; index >= 0; index--) {
    const entry = entries[index]!;
    if (!entry.pending || entry.due === undefined) continue;
    if (entry.due > now) nextDue = Math.min(nextDue, entry.due);
    else if (entry.keep) entries[index] = committed(entry);
    else entries.splice(index, 1);
  }
  if (nextDue === Number.POSITIVE_INFINITY) delete log.nextDue;
  else log.nextDue = nextDue;
}

// Kept in time order; a clock that goes back (tests, skew between machines) still lands in place.
function insert(entries: Entry[], entry: Entry): void {
  let index = entries.length;
  while (index > 0 && entries[index - 1]!.t > entry.t) index--;
  entries.splice(index, 0, entry);
}

function total(entries: readonly Entry[]): number {
  let sum = 0;
  for (const entry of entries) sum += entry.a;
  return sum;
}

/** When enough of the oldest entries will have left the window for `amount` to fit. */
function retryIn(entries: readonly Entry[], used: number, request: ReserveRequest): number | undefined {
  const { amount, limit, windowMs, now } = request;
  if (windowMs === undefined || amount > limit + epsilon) return undefined;
  let freed = 0;
  for (const entry of entries) {
    freed += entry.a;
    if (used - freed + amount <= limit + epsilon) return entry.t + windowMs - now;
  }
  return undefined;
}
