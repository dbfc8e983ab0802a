import type { StoreBackend } from "./backend.js";
import * as state from "./window-state.js";

/** The default: one process, nothing outlives it. Every operation runs to completion synchronously. */
export function createMemoryStore(): StoreBackend {
  const namespaces = new Map<string, state.NamespaceState>();
  const of = (namespace: string) => {
    const held = namespaces.get(namespace) ?? state.emptyState();
    namespaces.set(namespace, held);
    return held;
  };
  return {
    label: "memory",
    get: async (namespace, key, now) => state.getValue(of(namespace), key, now),
    set: async (namespace, key, json, ttlMs, now) => state.setValue(of(namespace), key, json, ttlMs, now),
    delete: async (namespace, key) => state.deleteKey(of(namespace), key),
    increment: async (namespace, key, amount, windowMs, now) => state.increment(of(namespace), key, amount, windowMs, now),
    reserve: async (namespace, key, request) => state.reserve(of(namespace), key, request),
    settle: async (namespace, key, callId, settlement) => state.settle(of(namespace), key, callId, settlement),
    close: async () => namespaces.clear(),
  };
}
