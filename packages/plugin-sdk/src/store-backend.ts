import type { Reservation } from "./store.js";

/** A reservation request as the backend sees it: everything resolved, the clock read. */
export interface ReserveRequest {
  amount: number;
  callId: string;
  limit: number;
  /** `undefined`: the window never forgets. */
  windowMs: number | undefined;
  now: number;
  /** What a failed call does with the reservation; also what happens when nobody reports the call's end. */
  onError: "release" | "commit";
  /** How long the reservation waits, pending, for its call's end to be reported; then it settles as failed. */
  pendingTtlMs: number;
  /** Decide without reserving anything: the answer a real reservation would get now. */
  dryRun?: boolean;
}

/**
 * How a call ended, as its reservations settle: `ok` commits, `blocked` releases, `error` does what the
 * reservation's `onError` says. A reservation whose end is never reported settles as `error` once its
 * `pendingTtlMs` has passed.
 */
export type CallEnd = "ok" | "error" | "blocked";

/**
 * One storage engine: what the host's memory and file stores and `@toolgate/store-redis` implement. Every method is atomic for its key, across every process that shares the
 * backend; `namespace` is the plugin's name, kept apart from every other plugin's keys.
 */
export interface StoreBackend {
  /** How reports name it: `memory`, `file:/path`, `redis://host:port`. */
  readonly label: string;
  /** The JSON text stored under `key`, if any and not expired. */
  get(namespace: string, key: string, now: number): Promise<string | undefined>;
  set(namespace: string, key: string, json: string, ttlMs: number | undefined, now: number): Promise<void>;
  delete(namespace: string, key: string): Promise<void>;
  increment(namespace: string, key: string, amount: number, windowMs: number | undefined, now: number): Promise<number>;
  reserve(namespace: string, key: string, request: ReserveRequest): Promise<Reservation>;
  /**
   * Makes the pending reservation `callId` holds on `key` findable by `settleCall` in any process, for
   * `ttlMs`: done only for a call whose end this host may never see (it was gated, not run, here).
   */
  index(namespace: string, key: string, callId: string, ttlMs: number): Promise<void>;
  /**
   * Settles the pending reservation `callId` holds on `key`; anything else is left alone. `indexed`:
   * `index` was called for it, and the index entry goes too.
   */
  settle(namespace: string, key: string, callId: string, end: CallEnd, now: number, indexed: boolean): Promise<void>;
  /**
   * Settles every pending reservation of `callId`, wherever it was made: the end of a call reported
   * by a process other than the one that reserved (`toolgate hook`: PreToolUse and PostToolUse are two
   * processes). `namespaces` are the plugins that may hold one.
   */
  settleCall(namespaces: readonly string[], callId: string, end: CallEnd, now: number): Promise<void>;
  close(): Promise<void>;
}

/** Totals are sums of floats (costs); a limit reached exactly must not fail on rounding. */
export const storeEpsilon = 1e-9;
