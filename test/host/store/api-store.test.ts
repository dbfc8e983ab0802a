import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHost, type Host, type PluginEntry } from "@toolgate/host";
import { definePlugin, type PluginStore } from "@toolgate/plugin-sdk";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { findRedisServer, missingRedisReason, startRedisServer, type RedisServer } from "./helpers/redis-server.js";

const hasRedis = findRedisServer() !== undefined;
if (!hasRedis) console.warn(`\n*** test/host/store/api-store.test.ts: the Redis backend is ${missingRedisReason}\n`);

let redis: RedisServer | undefined;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "toolgate-store-"));
  if (hasRedis) redis = await startRedisServer();
});
afterAll(async () => {
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const backends: [name: string, setting: () => string][] = [
  ["memory", () => "memory"],
  ["file", () => `file:${join(dir, "state")}`],
];
if (hasRedis) backends.push(["redis", () => redis!.url]);

let hosts: Host[] = [];
afterEach(async () => {
  await Promise.all(hosts.map((host) => host.close()));
  hosts = [];
});

/** A real host whose plugin "probe" hands out its `api.store`; a call with `reserve` reserves from its hook. */
async function openProbe(store: string, extra: PluginEntry[] = [], cwd?: string, more: { hookTimeoutMs?: number; storeWrites?: "local" } = {}) {
  let captured: PluginStore | undefined;
  const probe = (_: unknown, api: { store: PluginStore }) => {
    captured = api.store;
    return definePlugin({
      name: "probe",
      order: 100,
      hooks: {
        async pre_tool_call(call) {
          const { key, limit, onError, pendingTtlMs } = call.args as { key?: string; limit?: number; onError?: "commit"; pendingTtlMs?: number };
          if (key === undefined) return;
          const reservation = await api.store.reserve(key, 1, call.id, { limit: limit ?? 1, onError, pendingTtlMs });
          return reservation.ok ? undefined : { action: "block", message: `used ${reservation.used}` };
        },
      },
    });
  };
  const host = await createHost({
    ...(cwd === undefined ? {} : { cwd }),
    ...more,
    configFile: false,
    pluginsDir: false,
    logger: false,
    store,
    plugins: [probe as PluginEntry, ...extra],
    tools: { work: { execute: () => "done" }, fail: { execute: () => Promise.reject(new Error("broke")) } },
  });
  hosts.push(host);
  return { host, store: captured! };
}

// Every test uses fresh keys: file and Redis state outlives a host.
const fresh = () => `k-${randomUUID()}`;

describe.each(backends)("api.store on %s", (_, setting) => {
  it("sets, gets and deletes JSON values; a value with a time to live expires", async () => {
    const { store } = await openProbe(setting());
    const key = fresh();
    expect(await store.get(key)).toBeUndefined();
    await store.set(key, { n: 1, list: ["a"] });
    expect(await store.get(key)).toEqual({ n: 1, list: ["a"] });
    await store.delete(key);
    expect(await store.get(key)).toBeUndefined();
    await store.set(key, "short-lived", { ttlMs: 500 });
    expect(await store.get(key)).toBe("short-lived");
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await store.get(key)).toBeUndefined();
  });

  it("counts in a sliding window", async () => {
    const { store } = await openProbe(setting());
    const key = fresh();
    const at = (now: number, amount = 1) => store.increment(key, { windowMs: 1000, now, amount });
    expect(await at(0)).toBe(1);
    expect(await at(500, 2)).toBe(3);
    expect(await at(999)).toBe(4);
    expect(await at(1000)).toBe(4); // the entry at 0 has left the window
    expect(await at(1600)).toBe(3); // the ones at 500 too: 999, 1000 and 1600 are left
  });

  it("reserves up to the limit, idempotently per call id, and says when enough frees", async () => {
    const { store } = await openProbe(setting());
    const key = fresh();
    const reserve = (callId: string, amount: number, now: number) => store.reserve(key, amount, callId, { limit: 1, windowMs: 10_000, now });
    expect(await reserve("a", 0.1, 0)).toMatchObject({ ok: true, used: 0.1, duplicate: false });
    expect((await reserve("b", 0.2, 1000)).ok).toBe(true);
    expect((await reserve("c", 0.7, 2000)).ok).toBe(true); // 0.1 + 0.2 + 0.7 is exactly the limit, despite float rounding
    expect(await reserve("a", 0.1, 2500)).toMatchObject({ ok: true, duplicate: true });
    const refused = await reserve("d", 0.25, 3000);
    expect(refused).toMatchObject({ ok: false, duplicate: false, retryInMs: 8000 }); // 0.1 (t=0) and 0.2 (t=1000) must leave
    expect(refused.used).toBeCloseTo(1);
    expect((await reserve("e", 5, 3000)).retryInMs).toBeUndefined(); // more than the whole budget
    expect((await reserve("d", 0.25, 11_000)).ok).toBe(true);
  });

  it("keeps each plugin's keys apart", async () => {
    const other = (_: unknown, api: { store: PluginStore }) => {
      void api.store.set("shared-name", "other's");
      return definePlugin({ name: "other", hooks: {} });
    };
    const { store } = await openProbe(setting(), [other as never]);
    await store.set("shared-name", "probe's");
    expect(await store.get("shared-name")).toBe("probe's");
    await store.delete("shared-name");
  });

  it("commits a reservation when the call ends ok, releases it when blocked or failed, keeps it with onError: commit", async () => {
    const blocker = definePlugin({ name: "blocker", hooks: { pre_tool_call: (call) => (call.args["no"] ? { action: "block", message: "no" } : undefined) } });
    const { host } = await openProbe(setting(), [blocker]);
    const key = fresh();
    const call = (name: string, args: Record<string, unknown> = {}) => host.callTool({ id: randomUUID(), name, args: { key, ...args } });
    expect((await call("work", { no: true })).status).toBe("blocked");
    expect((await call("fail")).status).toBe("error");
    expect((await call("work")).status).toBe("ok");
    expect((await call("work")).content).toContain("used 1");
    const other = fresh();
    expect((await host.callTool({ id: "x", name: "fail", args: { key: other, onError: "commit" } })).status).toBe("error");
    expect((await host.callTool({ id: "y", name: "work", args: { key: other } })).status).toBe("blocked");
  });

  it("rejects bad arguments with a TypeError naming the method", async () => {
    const { store } = await openProbe(setting());
    expect(() => store.get("")).toThrow('api.store.get(key): the key must be a non-empty string (got "")');
    expect(() => store.set("k", () => 1)).toThrow('api.store.set("k", value): the value must be JSON (got function)');
    expect(() => store.reserve("k", -1, "id", { limit: 1 })).toThrow("api.store.reserve(): amount must be a finite number, 0 or more (got -1)");
    expect(() => store.reserve("k", 1, "", { limit: 1 })).toThrow('api.store.reserve("k"): callId must be a non-empty string');
    expect(() => store.increment("k", { windowMs: 0 })).toThrow("api.store.increment(): windowMs must be a number of milliseconds greater than 0 (got 0)");
  });
});

describe.each(backends)("settlement by call id, on %s", (name, setting) => {
  const blocker = definePlugin({ name: "blocker", hooks: { pre_tool_call: (call) => (call.args["no"] ? { action: "block", message: "no" } : undefined) } });

  it("a call gated with checkToolCall settles when postToolCall reports its end, in another host on the same store", async () => {
    const pre = (await openProbe(setting(), [blocker])).host;
    // Memory is one host's own: there the same host reports the end.
    const post = name === "memory" ? pre : (await openProbe(setting(), [blocker])).host;
    const key = fresh();
    const check = (id: string, args: Record<string, unknown> = {}) => pre.checkToolCall({ id, name: "work", args: { key, limit: 2, ...args } });
    const report = (id: string, status: "ok" | "error") => post.postToolCall({ id, name: "work", args: {} }, { callId: id, name: "work", status, content: "" });
    expect((await check("c1")).action).toBe("allow");
    await report("c1", "ok"); // committed
    expect((await check("c2")).action).toBe("allow");
    await report("c2", "error"); // released
    expect(await check("c3", { no: true })).toMatchObject({ action: "block", plugin: "blocker" }); // released here
    expect((await check("c4")).action).toBe("allow");
    expect(await check("c5")).toMatchObject({ action: "block", message: "used 2" });
  });

  it("a report that comes after the time to live is too late: the reservation has settled as failed", async () => {
    const pre = (await openProbe(setting())).host;
    const post = name === "memory" ? pre : (await openProbe(setting())).host;
    const key = fresh();
    expect((await pre.checkToolCall({ id: "late", name: "work", args: { key, pendingTtlMs: 200 } })).action).toBe("allow");
    await new Promise((resolve) => setTimeout(resolve, 300));
    await post.postToolCall({ id: "late", name: "work", args: {} }, { callId: "late", name: "work", status: "ok", content: "" });
    if (post !== pre) await post.close(); // waits for the settlement (in memory it is done at once)
    expect((await pre.checkToolCall({ id: "next", name: "work", args: { key } })).action).toBe("allow");
  });

  it("a reservation whose end is never reported settles as a failed call when its time to live passes", async () => {
    const { store } = await openProbe(setting());
    const released = fresh();
    expect((await store.reserve(released, 1, "x", { limit: 1, now: 0, pendingTtlMs: 1000 })).ok).toBe(true);
    expect((await store.reserve(released, 1, "y", { limit: 1, now: 999 })).ok).toBe(false);
    expect((await store.reserve(released, 1, "y", { limit: 1, now: 1000 })).ok).toBe(true); // x released at 1000
    const committed = fresh();
    expect((await store.reserve(committed, 1, "z", { limit: 1, now: 0, pendingTtlMs: 1000, onError: "commit" })).ok).toBe(true);
    expect((await store.reserve(committed, 1, "w", { limit: 1, now: 5000 })).ok).toBe(false); // z committed at 1000
  });

  it.skipIf(name === "memory")('storeWrites: "local" decides on the shared counts and writes nothing to them', async () => {
    const real = await openProbe(setting());
    const key = fresh();
    const call = (host: Host, id: string) => host.callTool({ id, name: "work", args: { key, limit: 3 } });
    expect((await call(real.host, "r1")).status).toBe("ok");
    let dry = await openProbe(setting(), [], undefined, { storeWrites: "local" });
    for (const round of [1, 2]) {
      dry = await openProbe(setting(), [], undefined, { storeWrites: "local" });
      const statuses = [];
      for (const id of ["d1", "d2", "d3"]) statuses.push((await call(dry.host, `${id}-${round}`)).status);
      expect(statuses).toEqual(["ok", "ok", "blocked"]); // 1 used for real, 2 more by this dry run
    }
    expect((await call(dry.host, "r1")).status).toBe("ok"); // a call the shared store holds is a duplicate, not a new count
    await real.store.set("value", "shared");
    expect(await dry.store.get("value")).toBe("shared");
    await dry.store.set("value", "dry");
    expect(await dry.store.get("value")).toBe("dry");
    expect(await real.store.get("value")).toBe("shared");
    // The shared budget: 2 left, as before the dry run.
    expect([(await call(real.host, "r2")).status, (await call(real.host, "r3")).status, (await call(real.host, "r4")).status]).toEqual(["ok", "ok", "blocked"]);
  });
});

describe("settlement", () => {
  it("a reservation that lands after its hook timed out is released, not left counted", async () => {
    const stateDir = join(dir, `slow-${randomUUID()}`);
    const lock = join(stateDir, "probe.json.lock");
    mkdirSync(stateDir, { recursive: true });
    writeFileSync(lock, `${process.pid} held-by-the-test`); // a live holder: the reservation waits
    const { host, store } = await openProbe(`file:${stateDir}`, [], undefined, { hookTimeoutMs: 200 });
    const late = await host.callTool({ id: "late", name: "work", args: { key: "k" } });
    expect(late.status).toBe("blocked"); // timed out, fail closed
    rmSync(lock);
    await store.get("k"); // queued behind the late reservation: it has landed once this answers
    const next = await host.callTool({ id: "next", name: "work", args: { key: "k" } });
    expect(next.status).toBe("ok");
  });
});

describe("the store setting", () => {
  it("rejects what is not a store, saying what is", async () => {
    await expect(createHost({ configFile: false, pluginsDir: false, logger: false, store: "mongodb://db" })).rejects.toThrow(
      'must be "memory", "file", "file:<dir>" or a redis:// (or rediss://) URL',
    );
  });

  it("resolves file:<dir> in a config file from the config file's folder", async () => {
    const project = mkdtempSync(join(tmpdir(), "toolgate-store-config-"));
    try {
      writeFileSync(join(project, "toolgate.config.mjs"), 'export default { store: "file:var/state", pluginsDir: false };');
      let store: PluginStore | undefined;
      const plugin = (_: unknown, api: { store: PluginStore }) => {
        store = api.store;
        return definePlugin({ name: "writer", hooks: {} });
      };
      const host = await createHost({ cwd: project, logger: false, plugins: [plugin as never] });
      await store!.set("written", true);
      await host.close();
      expect(readdirSync(join(project, "var/state"))).toEqual(["writer.json"]);
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });

  it('store: "file" keeps one file per plugin in .toolgate/store under the project root', async () => {
    const project = mkdtempSync(join(tmpdir(), "toolgate-store-default-"));
    try {
      const { store, host } = await openProbe("file", [], project);
      await store.set("k", 1);
      await host.close();
      expect(readdirSync(join(project, ".toolgate/store"))).toEqual(["probe.json"]);
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });

  it("never prints a Redis password: the URL is shown with it masked", async () => {
    const lines: string[] = [];
    const record = (message: string) => lines.push(message);
    const logger = { debug: record, info: record, warn: record, error: record };
    // Port 1 on loopback: nothing listens, so the connection is refused at once.
    const host = await createHost({ configFile: false, pluginsDir: false, logger, store: "redis://:hunter2@127.0.0.1:1/0" });
    await host.close();
    expect(lines.join("\n")).not.toContain("hunter2");
    expect(lines.some((line) => line.startsWith("store redis://:***@127.0.0.1:1/0 is unreachable ("))).toBe(true);
  });

  it("a store operation that fails rejects with STORE_UNAVAILABLE naming the plugin and the store", async () => {
    const blockedDir = join(dir, "not-a-dir");
    writeFileSync(blockedDir, "a file where the store's folder should be");
    const { store } = await openProbe(`file:${blockedDir}`);
    const failure = await store.get("k").catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: "STORE_UNAVAILABLE", plugin: "probe" });
    expect((failure as Error).message).toMatch(/^plugin "probe": store file:.*not-a-dir failed on get: /);
  });
});
