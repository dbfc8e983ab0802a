import type { Reservation } from "@toolgate/plugin-sdk";

/** A reservation request as the backend sees it: everything resolved, the clock read. */
export interface ReserveRequest {
  amount: number;
  callId: string;
  limit: number;
  /** `undefined`: the window never forgets. */
  windowMs: number | undefined;
  now: number;
}

export type Settlement = "commit" | "release";

/**
 * One storage engine. Every method is atomic for its key, across every process that shares the
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
  /** Commits or releases the pending reservation `callId` holds on `key`; anything else is left alone. */
  settle(namespace: string, key: string, callId: string, settlement: Settlement): Promise<void>;
  close(): Promise<void>;
}

/** Totals are sums of floats (costs); a limit reached exactly must not fail on rounding. */
export const epsilon = 1e-9;
