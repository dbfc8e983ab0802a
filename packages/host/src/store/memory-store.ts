import type { StoreBackend } from "@toolgate/plugin-sdk/host";
import * as state from "./window-state.js";

/** Writes between two sweeps of a namespace for expired keys: amortised, so no write pays for a full sweep. */
const writesPerSweep = 1024;

/** The default: one process, nothing outlives it. Every operation runs to completion synchronously. */
export function createMemoryStore(): StoreBackend {
  const namespaces = new Map<string, { held: state.NamespaceState; writes: number }>();
  const reading = (namespace: string) => namespaces.get(namespace)?.held ?? state.emptyState();
  // A long-lived host sees many sessions come and go: their keys are swept once they expire.
  const writing = (namespace: string, now: number) => {
    const entry = namespaces.get(namespace) ?? { held: state.emptyState(), writes: 0 };
    namespaces.set(namespace, entry);
    if (++entry.writes % writesPerSweep === 0) state.collect(entry.held, now);
    return entry.held;
  };
  return {
    label: "memory",
    get: async (namespace, key, now) => state.getValue(reading(namespace), key, now),
    set: async (namespace, key, json, ttlMs, now) => state.setValue(writing(namespace, now), key, json, ttlMs, now),
    delete: async (namespace, key) => state.deleteKey(reading(namespace), key),
    increment: async (namespace, key, amount, windowMs, now) => state.increment(writing(namespace, now), key, amount, windowMs, now),
    reserve: async (namespace, key, request) => state.reserve(request.dryRun ? reading(namespace) : writing(namespace, request.now), key, request),
    // The store is this process's own: nobody else could look a call up.
    index: async () => {},
    settle: async (namespace, key, callId, end, now) => void state.settle(reading(namespace), key, callId, end, now),
    settleCall: async (names, callId, end, now) => {
      for (const namespace of names) state.settleCall(reading(namespace), callId, end, now);
    },
    close: async () => namespaces.clear(),
  };
}
