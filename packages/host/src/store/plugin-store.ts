import type { CounterOptions, PluginStore, Reservation, ReserveOptions } from "@toolgate/plugin-sdk";
import { describeThrown, pluginLabel, ToolgateError } from "../errors.js";
import type { StoreBackend } from "@toolgate/plugin-sdk/host";
import type { ReservationLedger } from "./reservations.js";

/**
 * One plugin's `api.store`: its keys live under its name, bad arguments throw a `TypeError` naming the
 * method, and a backend failure rejects with `STORE_UNAVAILABLE` naming the plugin and the store.
 */
export function createPluginStore(plugin: () => string, backend: StoreBackend, ledger: ReservationLedger): PluginStore {
  ledger.addNamespace(plugin);
  const guarded = async <T>(operation: string, run: (namespace: string) => Promise<T>): Promise<T> => {
    const namespace = plugin();
    try {
      return await run(namespace);
    } catch (error) {
      const message = `${pluginLabel(namespace)}: store ${backend.label} failed on ${operation}: ${describeThrown(error)}`;
      throw new ToolgateError("STORE_UNAVAILABLE", message, { plugin: namespace, cause: error });
    }
  };

  return {
    get<T>(key: string) {
      checkKey("get", key);
      return guarded("get", async (namespace) => {
        const json = await backend.get(namespace, key, Date.now());
        return json === undefined ? undefined : (JSON.parse(json) as T);
      });
    },
    set(key, value, options = {}) {
      checkKey("set", key);
      const json = JSON.stringify(value);
      if (json === undefined) throw new TypeError(`api.store.set("${key}", value): the value must be JSON (got ${typeof value})`);
      const ttlMs = checkDuration("set", "ttlMs", options.ttlMs);
      return guarded("set", (namespace) => backend.set(namespace, key, json, ttlMs, Date.now()));
    },
    delete(key) {
      checkKey("delete", key);
      return guarded("delete", (namespace) => backend.delete(namespace, key));
    },
    increment(key, options: CounterOptions = {}) {
      checkKey("increment", key);
      const amount = checkAmount("increment", "amount", options.amount ?? 1);
      const windowMs = checkDuration("increment", "windowMs", options.windowMs);
      const now = checkNow("increment", options.now);
      return guarded("increment", (namespace) => backend.increment(namespace, key, amount, windowMs, now));
    },
    reserve(key, amount, callId, options: ReserveOptions): Promise<Reservation> {
      checkKey("reserve", key);
      checkAmount("reserve", "amount", amount);
      if (typeof callId !== "string" || callId === "") throw new TypeError(`api.store.reserve("${key}"): callId must be a non-empty string (the call's id)`);
      if (typeof options !== "object" || options === null) throw new TypeError(`api.store.reserve("${key}"): options ({ limit, windowMs? }) are required`);
      const limit = checkAmount("reserve", "limit", options.limit);
      const windowMs = checkDuration("reserve", "windowMs", options.windowMs);
      const now = checkNow("reserve", options.now);
      const onError = options.onError ?? "release";
      if (onError !== "release" && onError !== "commit") throw new TypeError(`api.store.reserve("${key}"): onError must be "release" or "commit"`);
      const pendingTtlMs = checkDuration("reserve", "pendingTtlMs", options.pendingTtlMs) ?? defaultPendingTtlMs;
      return guarded("reserve", async (namespace) => {
        const landed = ledger.reserving(callId);
        let reservation: Reservation | undefined;
        try {
          // The ends this host has seen count first: a call that ended here never holds the next one back.
          const settling = ledger.settling();
          if (settling) await settling;
          reservation = await backend.reserve(namespace, key, { amount, callId, limit, windowMs, now, onError, pendingTtlMs });
          return reservation;
        } finally {
          const realNow = Date.now();
          landed(reservation?.ok ? { namespace, key, clockOffsetMs: now - realNow, dueAt: realNow + pendingTtlMs } : undefined);
        }
      });
    },
  };
}

/** Longer than any tool call an agent waits for (Claude Code's Bash tool stops at 10 minutes). */
const defaultPendingTtlMs = 15 * 60_000;

function checkKey(method: string, key: unknown): asserts key is string {
  if (typeof key !== "string" || key === "") throw new TypeError(`api.store.${method}(key): the key must be a non-empty string (got ${describe(key)})`);
}

function checkAmount(method: string, name: string, value: unknown): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0)
    throw new TypeError(`api.store.${method}(): ${name} must be a finite number, 0 or more (got ${describe(value)})`);
  return value;
}

function checkDuration(method: string, name: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0)
    throw new TypeError(`api.store.${method}(): ${name} must be a number of milliseconds greater than 0 (got ${describe(value)})`);
  return value;
}

function checkNow(method: string, value: unknown): number {
  if (value === undefined) return Date.now();
  if (typeof value !== "number" || !Number.isFinite(value))
    throw new TypeError(`api.store.${method}(): now must be a time in milliseconds (got ${describe(value)})`);
  return value;
}

function describe(value: unknown): string {
  return typeof value === "string" ? JSON.stringify(value) : String(value);
}
