import type { Reservation } from "@toolgate/plugin-sdk";
import { epsilon, type ReserveRequest, type Settlement } from "./backend.js";

/** One amount counted at time `t`; `id` is the call id of a reservation, `pending` until it settles. */
interface Entry {
  t: number;
  a: number;
  id?: string;
  pending?: true;
}

interface WindowLog {
  entries: Entry[];
  /** The last window used, so idle logs can be collected. */
  windowMs?: number;
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
  const log = openLog(state, key, windowMs, now);
  const used = total(log.entries);
  if (log.entries.some((entry) => entry.id === callId)) return { ok: true, used, limit, duplicate: true, retryInMs: undefined };
  if (used + amount <= limit + epsilon) {
    insert(log.entries, { t: now, a: amount, id: callId, pending: true });
    return { ok: true, used: used + amount, limit, duplicate: false, retryInMs: undefined };
  }
  return { ok: false, used, limit, duplicate: false, retryInMs: retryIn(log.entries, used, request) };
}

export function settle(state: NamespaceState, key: string, callId: string, settlement: Settlement): void {
  const entries = state.windows[key]?.entries;
  const index = entries?.findIndex((entry) => entry.id === callId && entry.pending) ?? -1;
  if (!entries || index === -1) return;
  if (settlement === "release") entries.splice(index, 1);
  else delete entries[index]!.pending;
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

function prune(log: WindowLog, now: number): void {
  if (log.windowMs === undefined) return;
  const start = now - log.windowMs;
  let expired = 0;
  while (expired < log.entries.length && log.entries[expired]!.t <= start) expired++;
  if (expired > 0) log.entries.splice(0, expired);
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
