import { definePlugin } from "@toolgate/plugin-sdk";
import { createTestHost, type TestHost, type TestHostOptions } from "@toolgate/host/testing";
import { afterEach, describe, expect, it } from "vitest";
import budget from "./index.js";

let clock = 0;
let testHost: TestHost | undefined;

async function host(options: Record<string, unknown>, extra: TestHostOptions = {}) {
  clock = 0;
  testHost = await createTestHost(budget, {
    options: { now: () => clock, ...options },
    tools: {
      search: { returns: "found" },
      read: { returns: "read" },
      fail: () => {
        throw new Error("tool broke");
      },
    },
    ...extra,
  });
  return testHost;
}

afterEach(async () => {
  await testHost?.close();
  testHost = undefined;
});

describe("budget", () => {
  it("allows N calls per session, then blocks with the count and the scope", async () => {
    const testHost = await host({ limit: 3 });
    for (let i = 0; i < 3; i++) expect((await testHost.call("search")).executed).toBe(true);
    const outcome = await testHost.call("search");
    expect(outcome.executed).toBe(false);
    expect(outcome.message.content).toBe(
      'Tool call blocked by plugin "budget": budget: 3 of 3 calls used (per session); "search" costs 1 more. This budget does not refill.',
    );
  });

  it("says when to retry as people read it: a daily budget spent now refills in 24 h", async () => {
    const testHost = await host({ limit: 1, periodMs: 86_400_000 });
    await testHost.call("search");
    const blocked = await testHost.call("search");
    expect(blocked.message.content).toContain("(per session per 24h)");
    expect(blocked.message.content).toContain("Retry in 24 h.");
  });

  it("counts a cost per tool, and refills as the period slides", async () => {
    const testHost = await host({ limit: 10, cost: { search: 4, "*": 1 }, unit: "USD", periodMs: 60_000 });
    await testHost.call("search"); // 4 at 0s
    clock = 30_000;
    await testHost.call("search"); // 8 at 30s
    await testHost.call("read"); // 9
    const blocked = await testHost.call("search");
    expect(blocked.message.content).toContain('budget: 9 of 10 USD used (per session per 60s); "search" costs 4 more. Retry in 30s.');
    expect((await testHost.call("read")).executed).toBe(true); // 10: exactly the limit
    clock = 60_000; // the first 4 have left the period
    expect((await testHost.call("search")).executed).toBe(true);
  });

  it("a cost function sees the call", async () => {
    const testHost = await host({ limit: 5, cost: (call: { args: Record<string, unknown> }) => Number(call.args["pages"] ?? 1) });
    expect((await testHost.call("read", { pages: 5 })).executed).toBe(true);
    expect((await testHost.call("read", { pages: 0 })).executed).toBe(true); // free: not even reserved
    expect((await testHost.call("read", { pages: 1 })).executed).toBe(false);
  });

  it("releases the cost of a call another plugin blocks, and of a call that fails", async () => {
    const blocker = definePlugin({ name: "blocker", hooks: { pre_tool_call: (call) => (call.args["no"] ? { action: "block", message: "no" } : undefined) } });
    const testHost = await host({ limit: 1 }, { plugins: [blocker] });
    for (let i = 0; i < 3; i++) expect((await testHost.call("search", { no: true })).result.blockedBy).toBe("blocker");
    for (let i = 0; i < 3; i++) expect((await testHost.call("fail")).result.status).toBe("error");
    expect((await testHost.call("search")).executed).toBe(true);
    expect((await testHost.call("search")).executed).toBe(false);
  });

  it('onError: "commit" counts a call that ran and failed', async () => {
    const testHost = await host({ limit: 1, onError: "commit" });
    expect((await testHost.call("fail")).result.status).toBe("error");
    expect((await testHost.call("search")).executed).toBe(false);
  });

  it("never counts a retried call (same id) twice", async () => {
    const testHost = await host({ limit: 2 });
    expect((await testHost.call("search", {}, { id: "retry-me" })).executed).toBe(true);
    expect((await testHost.call("search", {}, { id: "retry-me" })).executed).toBe(true);
    expect((await testHost.call("search", {}, { id: "retry-me" })).executed).toBe(true);
    expect((await testHost.call("search")).executed).toBe(true);
    expect((await testHost.call("search")).executed).toBe(false);
  });

  it('per: ["user", "tool"] keeps one budget per tool for the user', async () => {
    const testHost = await host({ limit: 1, per: ["user", "tool"] }, { session: { user: "ada" } });
    expect((await testHost.call("search")).executed).toBe(true);
    expect((await testHost.call("read")).executed).toBe(true);
    const blocked = await testHost.call("search");
    expect(blocked.message.content).toContain("(per user and tool)");
  });

  it("counts only the listed tools", async () => {
    const testHost = await host({ limit: 1, tools: ["search"] });
    await testHost.call("search");
    expect((await testHost.call("search")).executed).toBe(false);
    expect((await testHost.call("read")).executed).toBe(true);
    expect((await testHost.call("read")).executed).toBe(true);
  });

  it("a cost function returning a non-number fails the call closed, naming the option", async () => {
    const testHost = await host({ limit: 5, cost: () => Number.NaN });
    const outcome = await testHost.call("search");
    expect(outcome.executed).toBe(false);
    expect(outcome.result.content).toContain('budget: option "cost": the cost of "search" must be a finite number, 0 or more (got NaN)');
  });

  describe("options are validated", () => {
    const cases: [options: Record<string, unknown>, message: string][] = [
      [{}, 'budget: option "limit" is required: the calls (or cost units) allowed per period'],
      [{ limit: 0 }, 'budget: option "limit": limit must be greater than 0 (got 0)'],
      [{ limit: 1, per: "team" }, 'budget: option "per": per must be "session", "user", "tool" or an array of them (got "team")'],
      [{ limit: 1, periodMs: -5 }, 'budget: option "periodMs": periodMs must be greater than 0 (got -5)'],
      [{ limit: 1, onStoreError: "open" }, 'budget: option "onStoreError": onStoreError must be "block" or "allow" (got "open")'],
      [
        { limit: 1, max: 3 },
        'budget: option "max": is not an option of this plugin (limit, cost, per, periodMs, tools, unit, onError, pendingTtlMs, onStoreError, now)',
      ],
    ];
    it.each(cases)("%j", async (options, message) => {
      await expect(createTestHost(budget, { options })).rejects.toThrow(message);
    });
  });
});
