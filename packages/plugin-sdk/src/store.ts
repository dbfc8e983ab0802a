/**
 * State that outlives one process: `api.store`. Every key is namespaced by the plugin's name, and
 * every operation is atomic on the backend (memory, a file per namespace under a lock, or Redis Lua),
 * so several hosts in several processes or machines share one count exactly.
 *
 * Every operation may reject when the backend is unreachable. A policy should then fail closed
 * (block the call) unless its user chose otherwise; the convention is a plugin option
 * `onStoreError: "block" | "allow"`, `"block"` by default.
 */
export interface PluginStore {
  /** The value stored under `key`, or `undefined` when there is none or its time to live has passed. */
  get<T = unknown>(key: string): Promise<T | undefined>;
  /** Stores a JSON value; with `ttlMs` it is gone that many milliseconds later. */
  set(key: string, value: unknown, options?: { ttlMs?: number | undefined }): Promise<void>;
  delete(key: string): Promise<void>;
  /**
   * Adds `amount` (default 1) to a sliding-window counter and returns the total within the window,
   * this amount included. Without `windowMs` the counter never forgets.
   */
  increment(key: string, options?: CounterOptions): Promise<number>;
  /**
   * Takes `amount` out of the budget `key` for the call `callId`, if the total within the window,
   * this amount included, stays at or under `limit`. The host commits the reservation when the call
   * ends `ok` and releases it when the call is blocked or fails (see `onError`), whichever process
   * sees or reports that end (`toolgate hook`: the pre- and post-tool hooks are two processes). A
   * reservation whose end nobody reports within `pendingTtlMs` settles as a failed call. Idempotent per
   * call id: reserving again for a call that already holds a reservation on `key` counts nothing and succeeds.
   */
  reserve(key: string, amount: number, callId: string, options: ReserveOptions): Promise<Reservation>;
}

export interface CounterOptions {
  /** @default 1 */
  amount?: number | undefined;
  /** The sliding window, in milliseconds. @default no window: the counter never forgets */
  windowMs?: number | undefined;
  /** The clock, in milliseconds since the epoch (for tests). @default Date.now() */
  now?: number | undefined;
}

export interface ReserveOptions {
  /** The most the window may hold, this reservation included. */
  limit: number;
  /** The sliding window, in milliseconds. @default no window: the budget never refills */
  windowMs?: number | undefined;
  /**
   * What a call that ran and failed (`status: "error"`) does with its reservation; also what happens
   * when the call's end is never reported (the tool crashed, the agent stopped). @default "release"
   */
  onError?: "release" | "commit" | undefined;
  /**
   * How long the reservation stays pending, waiting for its call's end; then it settles as a failed
   * call (`onError`). Make it longer than the longest tool call. @default 900000 (15 minutes)
   */
  pendingTtlMs?: number | undefined;
  /** The clock, in milliseconds since the epoch (for tests). @default Date.now() */
  now?: number | undefined;
}

export interface Reservation {
  /** `true`: the amount is reserved (or already was, for this call id). */
  readonly ok: boolean;
  /** The total within the window after this decision. */
  readonly used: number;
  readonly limit: number;
  /** This call id already held a reservation on this key: nothing was counted again. */
  readonly duplicate: boolean;
  /** When refused: how long until enough of the window frees for this amount; `undefined` if it never will. */
  readonly retryInMs: number | undefined;
}
