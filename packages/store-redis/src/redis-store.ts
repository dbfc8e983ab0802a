import type { Reservation } from "@toolgate/plugin-sdk";
import type { Redis as RedisClient } from "ioredis";
import { storeEpsilon as epsilon, type StoreBackend } from "@toolgate/plugin-sdk/host";
import { incrementScript, indexScript, reserveScript, settleScript, takeIndexScript } from "./redis-scripts.js";

type ScriptCommands = {
  toolgateIncrement(zset: string, hash: string, due: string, now: number, windowMs: number, amount: number): Promise<string>;
  toolgateReserve(
    zset: string,
    hash: string,
    due: string,
    now: number,
    windowMs: number,
    amount: number,
    limit: number,
    callId: string,
    eps: number,
    dueAt: number,
    pendingState: "p" | "q",
    dryRun: "1" | "0",
  ): Promise<[number, string, number, string]>;
  toolgateSettle(zset: string, hash: string, due: string, callId: string, end: string, now: number): Promise<number>;
  toolgateIndex(index: string, window: string, ttlMs: number): Promise<number>;
  toolgateTakeIndex(index: string): Promise<string[]>;
};

/** Where outages are reported: the host passes its logger. */
export interface RedisStoreLogger {
  warn(message: string): void;
  error(message: string): void;
}

export interface RedisStoreOptions {
  /** How long one command may take before the decision fails closed. @default 1000 */
  commandTimeoutMs?: number;
  /** How long `openRedisStore` waits for the first connection before going on without it. @default 2000 */
  connectTimeoutMs?: number;
}

/**
 * Redis (`store: "redis://…"`): every window operation is one Lua script, atomic on the server, so any
 * number of hosts in any number of processes and machines share one exact count. Commands are never
 * queued while the connection is down: they fail at once, and the plugin fails closed; the client
 * keeps reconnecting, and calls succeed again as soon as Redis is back.
 */
export async function openRedisStore(url: string, logger: RedisStoreLogger, options: RedisStoreOptions = {}): Promise<StoreBackend> {
  const { Redis } = await import("ioredis");
  const client = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: options.commandTimeoutMs ?? 1000,
    connectTimeout: options.connectTimeoutMs ?? 2000,
    retryStrategy: (attempt) => Math.min(attempt * 50, 500),
    lazyConnect: true,
  }) as RedisClient & ScriptCommands;
  const label = redactedLabel(url);
  let closing = false;
  reportOutages(client, label, logger, () => closing);
  client.defineCommand("toolgateIncrement", { numberOfKeys: 3, lua: incrementScript });
  client.defineCommand("toolgateReserve", { numberOfKeys: 3, lua: reserveScript });
  client.defineCommand("toolgateSettle", { numberOfKeys: 3, lua: settleScript });
  client.defineCommand("toolgateIndex", { numberOfKeys: 1, lua: indexScript });
  client.defineCommand("toolgateTakeIndex", { numberOfKeys: 1, lua: takeIndexScript });
  // A failed first connection is reported, not thrown: the host starts, its store-backed policies fail
  // closed, and the client keeps retrying in the background.
  await client.connect().catch(() => {});

  const keys = (namespace: string, key: string) => {
    const tag = `toolgate:{${encodeURIComponent(namespace)}:${key}}`;
    return { value: `${tag}:v`, zset: `${tag}:z`, hash: `${tag}:h`, due: `${tag}:d` };
  };
  // Which windows hold a pending reservation of a call, so a process that did not reserve can settle it.
  // Its own key (and slot): a window and a call index are never touched by one script.
  const indexOf = (callId: string) => `toolgate:call:{${encodeURIComponent(callId)}}`;
  const windowOf = (namespace: string, key: string) => `${encodeURIComponent(namespace)}\n${key}`;
  const settleWindow = (namespace: string, key: string, callId: string, end: string, now: number) => {
    const { zset, hash, due } = keys(namespace, key);
    return client.toolgateSettle(zset, hash, due, callId, end, now);
  };
  return {
    label,
    async get(namespace, key) {
      return (await client.get(keys(namespace, key).value)) ?? undefined;
    },
    async set(namespace, key, json, ttlMs) {
      const { value } = keys(namespace, key);
      if (ttlMs === undefined) await client.set(value, json);
      else await client.set(value, json, "PX", Math.max(1, Math.ceil(ttlMs)));
    },
    async delete(namespace, key) {
      const { value, zset, hash, due } = keys(namespace, key);
      await client.del(value, zset, hash, due);
    },
    async increment(namespace, key, amount, windowMs, now) {
      const { zset, hash, due } = keys(namespace, key);
      return Number(await client.toolgateIncrement(zset, hash, due, now, windowMs ?? 0, amount));
    },
    async reserve(namespace, key, request): Promise<Reservation> {
      const { zset, hash, due } = keys(namespace, key);
      const { amount, callId, limit, windowMs, now, pendingTtlMs } = request;
      const pendingState = request.onError === "commit" ? "q" : "p";
      const [ok, used, duplicate, retry] = await client.toolgateReserve(
        zset,
        hash,
        due,
        now,
        windowMs ?? 0,
        amount,
        limit,
        callId,
        epsilon,
        now + pendingTtlMs,
        pendingState,
        request.dryRun ? "1" : "0",
      );
      const retryInMs = Number(retry) < 0 ? undefined : Number(retry);
      return { ok: ok === 1, used: Number(used), limit, duplicate: duplicate === 1, retryInMs };
    },
    async index(namespace, key, callId, ttlMs) {
      await client.toolgateIndex(indexOf(callId), windowOf(namespace, key), Math.ceil(ttlMs) + 1000);
    },
    async settle(namespace, key, callId, end, now, indexed) {
      const settling = settleWindow(namespace, key, callId, end, now);
      await (indexed ? Promise.all([settling, client.hdel(indexOf(callId), windowOf(namespace, key))]) : settling);
    },
    async settleCall(_namespaces, callId, end, now) {
      const windows = await client.toolgateTakeIndex(indexOf(callId));
      await Promise.all(
        windows.map((window) => {
          const split = window.indexOf("\n");
          return settleWindow(decodeURIComponent(window.slice(0, split)), window.slice(split + 1), callId, end, now);
        }),
      );
    },
    async close() {
      closing = true;
      await client.quit().catch(() => client.disconnect());
    },
  };
}

// One error when the connection is lost (or never made) and one warning when it is back, not one per retry.
function reportOutages(client: RedisClient, label: string, logger: RedisStoreLogger, closing: () => boolean): void {
  let down = false;
  const lost = (reason: string) => {
    if (down || closing()) return;
    down = true;
    logger.error(`store ${label} is unreachable (${reason}); store-backed policies fail closed until it is back`);
  };
  client.on("error", (error: Error) => lost(error.message));
  client.on("close", () => lost("the connection closed"));
  client.on("ready", () => {
    if (!down) return;
    down = false;
    logger.warn(`store ${label} is reachable again`);
  });
}

/** The URL without its password, for messages. */
function redactedLabel(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString().replace(/\/$/, "");
  } catch {
    return "redis";
  }
}
