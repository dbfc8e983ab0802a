import type { Reservation } from "@toolgate/plugin-sdk";
import type { StoreBackend } from "@toolgate/plugin-sdk/host";
import { createMemoryStore } from "./memory-store.js";

/**
 * The shared store as a dry run sees it (`storeWrites: "local"`): every read and every decision takes
 * what the shared store holds into account, and nothing is ever written to it. What this host writes
 * (reservations, counters, values) lives in its own memory, on top: a replay of ten calls against a
 * budget with two left allows two, and the budget still has two left afterwards.
 */
export function withLocalWrites(shared: StoreBackend): StoreBackend {
  const local = createMemoryStore();
  // Values this host set or deleted: from then on its own copy answers for them.
  const overridden = new Set<string>();
  const id = (namespace: string, key: string) => JSON.stringify([namespace, key]);

  return {
    label: `${shared.label} (writes kept in this process)`,
    get: (namespace, key, now) => (overridden.has(id(namespace, key)) ? local : shared).get(namespace, key, now),
    set(namespace, key, json, ttlMs, now) {
      overridden.add(id(namespace, key));
      return local.set(namespace, key, json, ttlMs, now);
    },
    delete(namespace, key) {
      overridden.add(id(namespace, key));
      return local.delete(namespace, key);
    },
    // Counters count this host's own increments only: adding to the shared count is the write we avoid.
    increment: (namespace, key, amount, windowMs, now) => local.increment(namespace, key, amount, windowMs, now),
    async reserve(namespace, key, request): Promise<Reservation> {
      const mine = await local.reserve(namespace, key, { ...request, amount: 0, limit: Infinity, dryRun: true });
      if (mine.duplicate) return { ...mine, limit: request.limit };
      // Would the shared window take this amount on top of what this host has reserved already?
      const theirs = await shared.reserve(namespace, key, { ...request, amount: mine.used + request.amount, dryRun: true });
      if (theirs.duplicate) return { ...theirs, limit: request.limit };
      if (theirs.ok) await local.reserve(namespace, key, { ...request, limit: Infinity });
      return { ...theirs, used: theirs.ok ? theirs.used : theirs.used + mine.used };
    },
    index: (namespace, key, callId, ttlMs) => local.index(namespace, key, callId, ttlMs),
    settle: (namespace, key, callId, end, now, indexed) => local.settle(namespace, key, callId, end, now, indexed),
    settleCall: (namespaces, callId, end, now) => local.settleCall(namespaces, callId, end, now),
    async close() {
      await Promise.all([local.close(), shared.close()]);
    },
  };
}
