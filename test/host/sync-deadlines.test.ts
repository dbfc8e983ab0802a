import type { Plugin, PreToolCallResult } from "@toolgate/host";
import { describe, expect, it } from "vitest";
import { actHosts } from "../helpers/act-host.js";
import { recordEvents } from "../helpers/recorders.js";

/**
 * A hook that keeps the thread past its timeout and only then returns has timed out, synchronous or not:
 * its answer does not count, and the call fails as an async hook past its timeout would (closed by
 * default). The timer cannot fire while the hook holds the thread, so the gate measures the hook itself.
 */

const timeoutMs = 25;

/** Holds the thread for `ms`, as a hook doing heavy synchronous work (a big regex, a sync fs walk) would. */
function busy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // spin
  }
}

const hostWith = actHosts({ hookTimeoutMs: timeoutMs });

const late = (result: () => unknown): Plugin => ({ name: "late", hooks: { pre_tool_call: () => (busy(timeoutMs * 2), result()) as PreToolCallResult } });

const answers: [string, () => unknown][] = [
  ["no opinion", () => undefined],
  ["an allow", () => ({ action: "allow", reason: "fine" })],
  ["a block of its own", () => ({ action: "block", message: "its own words" })],
  ["an ask", () => ({ action: "ask", message: "a human?" })],
  ["a modify", () => ({ action: "modify", args: { path: "/etc/passwd" } })],
  ["an invalid value", () => 42],
  [
    "a throw",
    () => {
      throw new Error("thrown late");
    },
  ],
  ["a resolved promise", () => Promise.resolve({ action: "allow" })],
  ["a rejected promise", () => Promise.reject(new Error("rejected late"))],
  // A thenable that answers at once, inside `then`: settled before anyone waits, and still too late.
  // biome-ignore lint/suspicious/noThenProperty: a thenable is the point
  ["a thenable that settles synchronously", () => ({ then: (onValue: (value: unknown) => void) => onValue({ action: "allow" }) })],
];

describe("a pre_tool_call that returns after its timeout", () => {
  it.each(answers)("returning %s: the answer does not count, the call is blocked as timed out, the tool never runs", async (_answer, result) => {
    const { host, ran } = await hostWith([late(result)]);
    const seen = recordEvents(host.events);
    const outcome = await host.callTool({ id: "c1", name: "act", args: { path: "a" } });
    expect(outcome).toMatchObject({ status: "blocked", blockedBy: "late" });
    expect(outcome.content).toContain(`plugin "late": pre_tool_call timed out after ${timeoutMs} ms`);
    expect(outcome.content).toContain("failing closed");
    expect(outcome.content).not.toContain("its own words");
    expect(ran).toEqual([]);
    const types = seen.map(({ type }) => type);
    expect(types.slice(0, 2)).toEqual(["hook:timeout", "hook:error"]);
    expect(seen[0]!.payload).toMatchObject({ plugin: "late", hook: "pre_tool_call", timeoutMs });
    expect((seen[1]!.payload as { error: { code: string } }).error.code).toBe("HOOK_TIMEOUT");
  });

  it.each(answers)("returning %s under onHookError allow: the answer still does not count, and the call runs as it came", async (_answer, result) => {
    const { host, ran } = await hostWith([late(result)], { onHookError: "allow" });
    expect(await host.callTool({ id: "c1", name: "act", args: { path: "a" } })).toMatchObject({ status: "ok" });
    expect(ran).toEqual([{ path: "a" }]);
  });

  it("checkToolCall and explainToolCall agree: block, and the explanation says it timed out", async () => {
    const { host } = await hostWith([late(() => ({ action: "allow" }))]);
    expect(await host.checkToolCall({ id: "c1", name: "act", args: {} })).toMatchObject({ action: "block", plugin: "late" });
    const explanation = await host.explainToolCall({ id: "c2", name: "act", args: {} });
    expect(explanation.plugins).toEqual([{ plugin: "late", outcome: "error", message: expect.stringContaining("timed out after 25 ms") }]);
  });

  it("the late hook's ctx is aborted when it handed back a promise, and no later call gets that ctx", async () => {
    const signals: AbortSignal[] = [];
    let first = true;
    const { host } = await hostWith([
      {
        name: "late-once",
        hooks: {
          pre_tool_call: (_call, ctx) => {
            signals.push(ctx.signal);
            if (first) busy(timeoutMs * 2);
            first = false;
            return Promise.resolve(undefined);
          },
        },
      },
    ]);
    expect((await host.callTool({ id: "c1", name: "act", args: {} })).status).toBe("blocked");
    expect((await host.callTool({ id: "c2", name: "act", args: {} })).status).toBe("ok");
    expect(signals.map((signal) => signal.aborted)).toEqual([true, false]);
  });

  it("the next plugins still run and are measured from their own start: a fast one after a slow one is on time", async () => {
    const order: string[] = [];
    const { host } = await hostWith([
      { name: "a-slow", order: 1, hooks: { pre_tool_call: () => void (order.push("a"), busy(timeoutMs * 2)) } },
      { name: "b-fast", order: 2, hooks: { pre_tool_call: () => (order.push("b"), { action: "block", message: "b says no" }) } },
    ]);
    const result = await host.callTool({ id: "c1", name: "act", args: {} });
    expect(order).toEqual(["a", "b"]);
    // The first valid block in plugin order supplies the message: a-slow's timeout.
    expect(result.content).toContain('plugin "a-slow": pre_tool_call timed out');
    const explanation = await host.explainToolCall({ id: "c2", name: "act", args: {} });
    expect(explanation.plugins.map((plugin) => plugin.outcome)).toEqual(["error", "block"]);
  });
});

describe("hooks that are slow but on time are not cut off", () => {
  it.each([
    // Margins are wide: a busy loop on a loaded machine overshoots by whatever the scheduler takes.
    ["one sync hook using part of its timeout", [40]],
    ["several sync hooks whose sum exceeds the timeout, none alone", [60, 60, 60]],
  ])("%s", async (_case, delays) => {
    const plugins = delays.map((delay, index): Plugin => ({ name: `p${index}`, order: index, hooks: { pre_tool_call: () => busy(delay) } }));
    const { host, ran } = await hostWith(plugins, { hookTimeoutMs: 150 });
    expect(await host.callTool({ id: "c1", name: "act", args: {} })).toMatchObject({ status: "ok" });
    expect(ran).toHaveLength(1);
  });

  it("no timeout (Infinity) never times a hook out", async () => {
    const { host } = await hostWith([late(() => ({ action: "allow" }))], { hookTimeoutMs: Infinity });
    expect(await host.callTool({ id: "c1", name: "act", args: {} })).toMatchObject({ status: "ok" });
  });
});

describe("observers and factories past their timeout", () => {
  it("a post_tool_call that returns late is reported as timed out and fails open", async () => {
    const { host } = await hostWith([{ name: "slow-observer", hooks: { post_tool_call: () => busy(timeoutMs * 2) } }]);
    const seen = recordEvents(host.events);
    expect(await host.callTool({ id: "c1", name: "act", args: {} })).toMatchObject({ status: "ok" });
    expect(seen.filter(({ type }) => type === "hook:timeout").map(({ payload }) => payload)).toMatchObject([
      { plugin: "slow-observer", hook: "post_tool_call" },
    ]);
  });

  it("a plugin factory that returns late fails to load, naming the timeout", async () => {
    const { host } = await hostWith(
      [
        (() => {
          busy(timeoutMs * 2);
          return { name: "slow-factory" };
        }) as unknown as Plugin,
      ],
      { onPluginError: "allow" },
    );
    expect(host.plugins[0]).toMatchObject({ status: "failed", error: expect.stringContaining(`timed out after ${timeoutMs} ms`) });
  });
});
