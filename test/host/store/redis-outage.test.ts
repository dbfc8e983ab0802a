import { randomUUID } from "node:crypto";
import { createHost, type Host, type PluginEntry } from "@toolgate/host";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import budget from "../../../plugins/budget/src/index.js";
import rateLimit from "../../../plugins/rate-limit/src/index.js";
import { findRedisServer, missingRedisReason, startRedisServer, type RedisServer } from "./helpers/redis-server.js";

const hasRedis = findRedisServer() !== undefined;
if (!hasRedis) console.warn(`\n*** test/host/store/redis-outage.test.ts: ${missingRedisReason}\n`);

let redis: RedisServer;
const logged: string[] = [];
const logger = {
  debug() {},
  info() {},
  warn: (message: string) => logged.push(`warn: ${message}`),
  error: (message: string) => logged.push(`error: ${message}`),
};

beforeAll(async () => {
  if (hasRedis) redis = await startRedisServer();
});
afterAll(async () => {
  await redis?.stop();
});

function open(plugins: PluginEntry[]): Promise<Host> {
  return createHost({ configFile: false, pluginsDir: false, logger, store: redis.url, plugins, tools: { work: { execute: () => "done" } } });
}

const call = (host: Host) => host.callTool({ id: randomUUID(), name: "work", args: {} });

describe.skipIf(!hasRedis)("Redis goes away mid-run", () => {
  it("calls fail closed, with the error reported, and recover when Redis returns", async () => {
    const host = await open([[rateLimit, { max: 1000 }]]);
    const lenient = await open([[budget, { limit: 1000, onStoreError: "allow" }]]);
    try {
      expect((await call(host)).status).toBe("ok");
      await redis.stop();

      const refused = await call(host);
      expect(refused.status).toBe("blocked");
      expect(refused.content).toBe(
        'Tool call blocked by plugin "rate-limit": rate limit: the limit cannot be checked right now (its store is unreachable), so the call is blocked. Retry later.',
      );
      expect(
        logged.some((line) =>
          line.startsWith('error: [rate-limit] the store failed, the call is blocked (onStoreError: "block"): plugin "rate-limit": store redis://127.0.0.1:'),
        ),
      ).toBe(true);
      // The client reports the lost connection from its own event, which a busy machine may deliver after the call's answer.
      await vi.waitFor(() => expect(logged.some((line) => /^error: store redis:\/\/127\.0\.0\.1:\d+ is unreachable/.test(line))).toBe(true), {
        timeout: 10_000,
      });

      // The plugin that chose onStoreError: "allow" lets the call through, and says so.
      expect((await call(lenient)).status).toBe("ok");
      expect(logged.some((line) => line.includes('[budget] the store failed, the call is allowed uncounted (onStoreError: "allow")'))).toBe(true);

      await redis.start();
      const deadline = Date.now() + 10_000;
      let status = (await call(host)).status;
      while (status !== "ok" && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        status = (await call(host)).status;
      }
      expect(status).toBe("ok");
      expect(logged.some((line) => /^warn: store redis:\/\/127\.0\.0\.1:\d+ is reachable again/.test(line))).toBe(true);
    } finally {
      await host.close();
      await lenient.close();
    }
  }, 30_000);

  it("a host started while Redis is down starts, fails closed, and works once Redis is up", async () => {
    await redis.stop();
    const host = await open([[rateLimit, { max: 5 }]]);
    try {
      expect(host.plugins.map((plugin) => plugin.status)).toEqual(["loaded"]);
      expect((await call(host)).status).toBe("blocked");
      await redis.start();
      const deadline = Date.now() + 10_000;
      let status = (await call(host)).status;
      while (status !== "ok" && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        status = (await call(host)).status;
      }
      expect(status).toBe("ok");
    } finally {
      await host.close();
    }
  }, 30_000);
});

describe.skipIf(!hasRedis)("closing a host on Redis", () => {
  it("quits the connection quietly: no outage is reported, and the process is free to exit", async () => {
    await redis.start();
    logged.length = 0;
    const host = await open([[rateLimit, { max: 5 }]]);
    expect((await call(host)).status).toBe("ok");
    await host.close();
    expect(logged).toEqual([]);
  });
});
