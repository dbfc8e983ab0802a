import type { Reservation } from "@toolgate/plugin-sdk";
import type { Redis as RedisClient } from "ioredis";
import type { HostLogger } from "../logger.js";
import { epsilon, type StoreBackend } from "./backend.js";
import { incrementScript, reserveScript, settleScript } from "./redis-scripts.js";

type ScriptCommands = {
  toolgateIncrement(zset: string, hash: string, now: number, windowMs: number, amount: number): Promise<string>;
  toolgateReserve(
    zset: string,
    hash: string,
    now: number,
    windowMs: number,
    amount: number,
    limit: number,
    callId: string,
    eps: number,
  ): Promise<[number, string, number, string]>;
  toolgateSettle(zset: string, hash: string, callId: string, settlement: string): Promise<number>;
};

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
export async function openRedisStore(url: string, logger: HostLogger, options: RedisStoreOptions = {}): Promise<StoreBackend> {
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
  client.defineCommand("toolgateIncrement", { numberOfKeys: 2, lua: incrementScript });
  client.defineCommand("toolgateReserve", { numberOfKeys: 2, lua: reserveScript });
  client.defineCommand("toolgateSettle", { numberOfKeys: 2, lua: settleScript });
  // A failed first connection is reported, not thrown: the host starts, its store-backed policies fail
  // closed, and the client keeps retrying in the background.
  await client.connect().catch(() => {});

  const keys = (namespace: string, key: string) => {
    const tag = `toolgate:{${encodeURIComponent(namespace)}:${key}}`;
    return { value: `${tag}:v`, zset: `${tag}:z`, hash: `${tag}:h` };
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
      const { value, zset, hash } = keys(namespace, key);
      await client.del(value, zset, hash);
    },
    async increment(namespace, key, amount, windowMs, now) {
      const { zset, hash } = keys(namespace, key);
      return Number(await client.toolgateIncrement(zset, hash, now, windowMs ?? 0, amount));
    },
    async reserve(namespace, key, request): Promise<Reservation> {
      const { zset, hash } = keys(namespace, key);
      const { amount, callId, limit, windowMs, now } = request;
      const [ok, used, duplicate, retry] = await client.toolgateReserve(zset, hash, now, windowMs ?? 0, amount, limit, callId, epsilon);
      const retryInMs = Number(retry) < 0 ? undefined : Number(retry);
      return { ok: ok === 1, used: Number(used), limit, duplicate: duplicate === 1, retryInMs };
    },
    async settle(namespace, key, callId, settlement) {
      const { zset, hash } = keys(namespace, key);
      await client.toolgateSettle(zset, hash, callId, settlement);
    },
    async close() {
      closing = true;
      await client.quit().catch(() => client.disconnect());
    },
  };
}

// One error when the connection is lost (or never made) and one warning when it is back, not one per retry.
function reportOutages(client: RedisClient, label: string, logger: HostLogger, closing: () => boolean): void {
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
