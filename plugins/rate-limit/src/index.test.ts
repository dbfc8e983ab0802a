import { definePlugin } from "@toolgate/plugin-sdk";
import { createTestHost, type TestHost, type TestHostOptions } from "@toolgate/host/testing";
import { afterEach, describe, expect, it } from "vitest";
import rateLimit from "./index.js";

let clock = 0;
let testHost: TestHost | undefined;

async function host(options: Record<string, unknown> = {}, extra: TestHostOptions = {}) {
  clock = 0;
  testHost = await createTestHost(rateLimit, { options: { now: () => clock, ...options }, tools: ["search", "read", "write"], ...extra });
  return testHost;
}

/** Calls `tool` `count` times, one second apart, and returns the outcomes. */
async function callTimes(testHost: TestHost, tool: string, count: number) {
  const outcomes = [];
  for (let i = 0; i < count; i++) {
    outcomes.push(await testHost.call(tool, { q: i }));
    clock += 1000;
  }
  return outcomes;
}

afterEach(async () => {
  await testHost?.close();
  testHost = undefined;
});

describe("rate-limit", () => {
  it("lets calls through up to the limit", async () => {
    const outcomes = await callTimes(await host(), "search", 5);
    expect(outcomes.map((outcome) => outcome.executed)).toEqual([true, true, true, true, true]);
  });

  it("blocks the call over the limit and says when to retry", async () => {
    const testHost = await host();
    await callTimes(testHost, "search", 5); // at 0s, 1s, … 4s
    clock = 18_000;
    const outcome = await testHost.call("search", { q: "more" });
    expect(outcome.executed).toBe(false);
    expect(outcome.result.blockedBy).toBe("rate-limit");
    expect(outcome.message.content).toBe(
      'Tool call blocked by plugin "rate-limit": rate limit: "search" may be called 5 times per 60s; this was call 6. Retry in 42s.',
    );
  });

  it("counts refused attempts in the message, without letting them use the budget", async () => {
    const testHost = await host({ max: 1 });
    await testHost.call("search");
    clock = 10_000;
    expect((await testHost.call("search")).message.content).toContain('"search" may be called 1 time per 60s; this was call 2. Retry in 50s.');
    clock = 20_000;
    expect((await testHost.call("search")).message.content).toContain("this was call 3. Retry in 40s.");
    clock = 60_000;
    expect((await testHost.call("search")).executed).toBe(true);
  });

  it("slides the window: each slot frees windowMs after its own call", async () => {
    const testHost = await host({ max: 2, windowMs: 10_000 });
    clock = 0;
    await testHost.call("search");
    clock = 4_000;
    await testHost.call("search");
    clock = 9_999;
    expect((await testHost.call("search")).message.content).toContain("Retry in 1s.");
    clock = 10_000; // the call at 0s has left the window, the one at 4s has not
    expect((await testHost.call("search")).executed).toBe(true);
    clock = 12_000;
    const blocked = await testHost.call("search");
    expect(blocked.executed).toBe(false);
    expect(blocked.message.content).toContain("Retry in 2s."); // the call at 4s frees at 14s
    clock = 14_000;
    expect((await testHost.call("search")).executed).toBe(true);
  });

  it("gives each tool its own budget", async () => {
    const testHost = await host({ max: 2 });
    await callTimes(testHost, "search", 2);
    expect((await testHost.call("search")).executed).toBe(false);
    expect((await testHost.call("read")).executed).toBe(true);
    expect((await testHost.call("write")).executed).toBe(true);
  });

  it("perTool: false shares one budget between all tools", async () => {
    const testHost = await host({ max: 2, perTool: false });
    await testHost.call("search");
    await testHost.call("read");
    const outcome = await testHost.call("write");
    expect(outcome.executed).toBe(false);
    expect(outcome.message.content).toBe(
      'Tool call blocked by plugin "rate-limit": rate limit: tools may be called 2 times per 60s in total; "write" was call 3. Retry in 60s.',
    );
  });

  it("tools: limits only the named tools", async () => {
    const testHost = await host({ max: 1, tools: ["search"] });
    await testHost.call("search");
    expect((await testHost.call("search")).executed).toBe(false);
    expect((await callTimes(testHost, "read", 5)).every((outcome) => outcome.executed)).toBe(true);
  });

  it("gives the slot back when another plugin blocks the call", async () => {
    const blocker = definePlugin({
      name: "blocks-marked-calls",
      order: 0, // before rate-limit (order 100)
      hooks: { pre_tool_call: (call) => (call.args["blockMe"] ? { action: "block", message: "marked" } : undefined) },
    });
    const testHost = await host({ max: 2 }, { plugins: [blocker] });
    for (let i = 0; i < 5; i++) {
      const outcome = await testHost.call("search", { blockMe: true });
      expect(outcome.result.blockedBy).toBe("blocks-marked-calls");
    }
    expect((await testHost.call("search")).executed).toBe(true);
    expect((await testHost.call("search")).executed).toBe(true);
    expect((await testHost.call("search")).result.blockedBy).toBe("rate-limit");
  });

  it("gives the slot back when an ask is refused", async () => {
    const asker = definePlugin({ name: "asks", hooks: { pre_tool_call: (call) => (call.args["risky"] ? { action: "ask", message: "sure?" } : undefined) } });
    const testHost = await host({ max: 1 }, { plugins: [asker], host: { onAsk: () => false } });
    expect((await testHost.call("search", { risky: true })).executed).toBe(false);
    expect((await testHost.call("search")).executed).toBe(true);
  });

  it("counts a call gated by checkToolCall and then run with the skip flag once", async () => {
    const testHost = await host({ max: 2 });
    const call = { id: "checked-1", name: "search", args: {} };
    expect((await testHost.host.checkToolCall(call)).action).toBe("allow");
    expect((await testHost.host.callTool(call, { skipPreToolCallHook: true })).status).toBe("ok");
    expect((await testHost.call("search")).executed).toBe(true);
    expect((await testHost.call("search")).executed).toBe(false);
  });

  it("refunds a call gated by checkToolCall, blocked by another plugin, then handed to callTool", async () => {
    const blocker = definePlugin({
      name: "blocks-marked-calls",
      hooks: { pre_tool_call: (call) => (call.args["blockMe"] ? { action: "block", message: "marked" } : undefined) },
    });
    const testHost = await host({ max: 1 }, { plugins: [blocker] });
    const call = { id: "checked-2", name: "search", args: { blockMe: true } };
    expect((await testHost.host.checkToolCall(call)).plugin).toBe("blocks-marked-calls");
    expect((await testHost.host.callTool(call, { skipPreToolCallHook: true })).status).toBe("blocked");
    expect((await testHost.call("search")).executed).toBe(true);
  });

  it("a call that ran and failed keeps its slot: it reached the tool", async () => {
    const testHost = await host(
      { max: 1 },
      {
        tools: {
          fail: () => {
            throw new Error("tool broke");
          },
        },
      },
    );
    expect((await testHost.call("fail")).result.status).toBe("error");
    expect((await testHost.call("fail")).result.blockedBy).toBe("rate-limit");
  });

  it("counts a retried call (same id) once", async () => {
    const testHost = await host({ max: 2 });
    for (let i = 0; i < 3; i++) expect((await testHost.call("search", {}, { id: "same" })).executed).toBe(true);
    expect((await testHost.call("search")).executed).toBe(true);
    expect((await testHost.call("search")).executed).toBe(false);
  });

  it("uses the real clock by default", async () => {
    testHost = await createTestHost(rateLimit, { options: { max: 1 }, tools: ["search"] });
    expect((await testHost.call("search")).executed).toBe(true);
    expect((await testHost.call("search")).message.content).toMatch(/this was call 2\. Retry in (60|59)s\.$/);
  });

  it("fails closed, naming the option, when `now` returns something that is not a time", async () => {
    testHost = await createTestHost(rateLimit, { options: { now: () => Number.NaN }, tools: ["search"] });
    const outcome = await testHost.call("search");
    expect(outcome.executed).toBe(false);
    expect(outcome.result.content).toContain('rate-limit: option "now" returned NaN');
  });

  describe("options are validated", () => {
    const cases: [options: Record<string, unknown>, message: string][] = [
      [{ max: 0 }, 'rate-limit: option "max": max must be 1 or more (got 0)'],
      [{ max: 2.5 }, 'rate-limit: option "max": max must be a whole number (got 2.5)'],
      [{ max: "5" }, 'rate-limit: option "max": max must be a number (got "5")'],
      [{ windowMs: -1 }, 'rate-limit: option "windowMs": windowMs must be greater than 0 (got -1)'],
      [{ tools: [] }, 'rate-limit: option "tools": tools must not be empty (leave it out to limit every tool)'],
      [{ perTool: "no" }, 'rate-limit: option "perTool": perTool must be true or false (got "no")'],
      [{ now: 5 }, 'rate-limit: option "now": now must be a function returning milliseconds (got 5)'],
      [{ maxCalls: 3 }, 'rate-limit: option "maxCalls": is not an option of this plugin (max, windowMs, tools, perTool, now, onStoreError)'],
    ];
    it.each(cases)("%j", async (options, message) => {
      await expect(createTestHost(rateLimit, { options })).rejects.toThrow(message);
    });
  });
});
