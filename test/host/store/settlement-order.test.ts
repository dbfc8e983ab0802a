// A call's end is counted before anything that comes after it: `postToolCall` resolves once the
// settlement is stored (so the next check, in any host on the store, sees it), and a check in the host
// that saw a call end waits for that settlement. Proven without timing: every backend is wrapped so
// that settlements wait at a gate the test opens, and the order in which operations reach the real
// backend is recorded.
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHost, type Host, type PluginEntry } from "@toolgate/host";
import { definePlugin, type PluginStore } from "@toolgate/plugin-sdk";
import type { StoreBackend } from "@toolgate/plugin-sdk/host";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { findRedisServer, missingRedisReason, startRedisServer, type RedisServer } from "./helpers/redis-server.js";

/** Holds every settlement on its way to the backend while closed; logs what reaches the backend, in order. */
const gate = vi.hoisted(() => {
  let waiting: (() => void)[] = [];
  let reached: (() => void) | undefined;
  const state = {
    closed: false,
    // A test's own: what an earlier test scheduled never opens the gate of a later one.
    generation: 0,
    log: [] as string[],
    close() {
      state.closed = true;
    },
    open() {
      state.closed = false;
      for (const release of waiting.splice(0)) release();
    },
    holding: () => waiting.length > 0,
    /** Opens the gate one turn of the event loop from now. */
    openSoon() {
      const generation = state.generation;
      setImmediate(() => generation === state.generation && state.open());
    },
    /** Resolves once a settlement is held at the closed gate. */
    held: () => new Promise<void>((resolve) => (waiting.length > 0 ? resolve() : (reached = resolve))),
    async pass(): Promise<void> {
      if (!state.closed) return;
      const opened = new Promise<void>((resolve) => waiting.push(resolve));
      reached?.();
      reached = undefined;
      await opened;
    },
    reset() {
      state.generation++;
      state.closed = false;
      state.log = [];
      waiting = [];
      reached = undefined;
    },
  };
  return state;
});

vi.mock(import("../../../packages/host/src/store/open-store.js"), async (importOriginal) => {
  const actual = await importOriginal();
  return { ...actual, openStore: async (...args: Parameters<typeof actual.openStore>) => gated(await actual.openStore(...args)) };
});

function gated(backend: StoreBackend): StoreBackend {
  return {
    ...backend,
    label: backend.label,
    async reserve(namespace, key, request) {
      gate.log.push(`reserve ${request.callId}`);
      return backend.reserve(namespace, key, request);
    },
    async settle(namespace, key, callId, end, now, indexed) {
      await gate.pass();
      gate.log.push(`settle ${callId} ${end}`);
      return backend.settle(namespace, key, callId, end, now, indexed);
    },
    async settleCall(namespaces, callId, end, now) {
      await gate.pass();
      gate.log.push(`settle ${callId} ${end}`);
      return backend.settleCall(namespaces, callId, end, now);
    },
    close: () => backend.close(),
  };
}

const hasRedis = findRedisServer() !== undefined;
if (!hasRedis) console.warn(`\n*** test/host/store/settlement-order.test.ts: the Redis backend is ${missingRedisReason}\n`);

let redis: RedisServer | undefined;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "toolgate-settlement-"));
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
beforeEach(() => gate.reset());
afterEach(async () => {
  gate.open();
  await Promise.all(hosts.map((host) => host.close()));
  hosts = [];
});

/**
 * A host whose plugin "budget" reserves 1 of `args.limit` on `args.key` for every call (`beforeReserve`
 * runs just before it asks the store), and whose plugin "blocker", which runs after it, blocks a call
 * with `args.no`.
 */
async function openHost(store: string, beforeReserve: () => void = () => {}): Promise<Host> {
  const budget = (_: unknown, api: { store: PluginStore }) =>
    definePlugin({
      name: "budget",
      hooks: {
        async pre_tool_call(call) {
          const { key, limit } = call.args as { key: string; limit: number };
          beforeReserve();
          const reservation = await api.store.reserve(key, 1, call.id, { limit });
          return reservation.ok ? undefined : { action: "block", message: `used ${reservation.used}` };
        },
      },
    });
  const blocker = definePlugin({
    name: "blocker",
    order: 1,
    hooks: { pre_tool_call: (call) => (call.args["no"] ? { action: "block", message: "no" } : undefined) },
  });
  const host = await createHost({
    configFile: false,
    pluginsDir: false,
    logger: false,
    store,
    plugins: [budget as PluginEntry, blocker],
    tools: { fail: { execute: () => Promise.reject(new Error("broke")) } },
  });
  hosts.push(host);
  return host;
}

/** True when `promise` is still pending once everything already queued (microtasks, I/O callbacks) has run. */
async function isPending(promise: Promise<unknown>): Promise<boolean> {
  const settled = promise.then(
    () => false,
    () => false,
  );
  return Promise.race([settled, new Promise<boolean>((resolve) => setImmediate(() => resolve(true)))]);
}

describe.each(backends)("a call's end is stored before what comes after it, on %s", (name, setting) => {
  it("postToolCall resolves only once the settlement it reports is stored, so the next check in another host counts it", async () => {
    const pre = await openHost(setting());
    // Memory is one host's own: there the same host reports the end.
    const post = name === "memory" ? pre : await openHost(setting());
    const key = `k-${randomUUID()}`;
    expect((await pre.checkToolCall({ id: "c1", name: "work", args: { key, limit: 1 } })).action).toBe("allow");

    gate.close();
    const reporting = post.postToolCall({ id: "c1", name: "work", args: {} }, { callId: "c1", name: "work", status: "error", content: "" });
    await gate.held();
    expect(await isPending(reporting)).toBe(true);
    gate.open();
    await reporting;

    expect(await pre.checkToolCall({ id: "c2", name: "work", args: { key, limit: 1 } })).toMatchObject({ action: "allow" });
    expect(gate.log).toEqual(["reserve c1", "settle c1 error", "reserve c2"]);
  });

  it("a check waits for the settlements under way in its host: a failed call's release counts before the next reservation", async () => {
    // Opened when the next call asks for its reservation while a settlement is held, one turn of the
    // event loop later: by then a reservation that did not wait has reached the store.
    const host = await openHost(setting(), () => {
      if (gate.holding()) gate.openSoon();
    });
    const key = `k-${randomUUID()}`;
    gate.close();
    expect(await host.callTool({ id: "c1", name: "fail", args: { key, limit: 1 } })).toMatchObject({ status: "error" });
    await gate.held();

    expect(await host.checkToolCall({ id: "c2", name: "work", args: { key, limit: 1 } })).toMatchObject({ action: "allow" });
    expect(gate.log).toEqual(["reserve c1", "settle c1 error", "reserve c2"]);
  });

  it("a check blocked after it reserved: its release counts before the next check in the same host", async () => {
    const host = await openHost(setting(), () => {
      if (gate.holding()) gate.openSoon();
    });
    const key = `k-${randomUUID()}`;
    gate.close();
    // The budget reserves, then the blocker (a later plugin) blocks: the reservation is released.
    expect(await host.checkToolCall({ id: "c1", name: "work", args: { key, limit: 1, no: true } })).toMatchObject({ action: "block", plugin: "blocker" });
    await gate.held();

    expect(await host.checkToolCall({ id: "c2", name: "work", args: { key, limit: 1 } })).toMatchObject({ action: "allow" });
    expect(gate.log).toEqual(["reserve c1", "settle c1 blocked", "reserve c2"]);
  });
});
