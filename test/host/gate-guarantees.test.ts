import type { AskHandler, Plugin, ToolCall } from "@toolgate/host";
import { describe, expect, it } from "vitest";
import { actHosts } from "../helpers/act-host.js";

/**
 * Promises of the gate that a plausible one-line change would break while the rest of the suite stays
 * green; each test here was seen failing with that change made (see the comment on each).
 */

const hostWith = actHosts();

const call = (id = "c1", args: Record<string, unknown> = { path: "a.txt" }): ToolCall => ({ id, name: "act", args });

/** Resolves on the next macrotask: every microtask queued so far has run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

// Broken by: `const pending = advance(run)` in the gate's `resume` (no `runtime.closed` check).
describe("after close(), no plugin runs for a call that was waiting on an async hook", () => {
  const seenAfter: string[] = [];
  const waits = (settleOnAbort: "resolve" | "reject" | "never"): Plugin => ({
    name: "a-waits",
    order: 1,
    hooks: {
      pre_tool_call: (_call, ctx) =>
        new Promise((resolve, reject) => {
          if (settleOnAbort === "resolve") ctx.signal.addEventListener("abort", () => resolve(undefined));
          if (settleOnAbort === "reject") ctx.signal.addEventListener("abort", () => reject(new Error("aborted")));
        }),
    },
  });
  const later = (name: string, order: number, style: "sync" | "async"): Plugin => ({
    name,
    order,
    hooks: {
      pre_tool_call:
        style === "sync"
          ? (seen) => void seenAfter.push(`${name}:${seen.id}`)
          : async (seen) => {
              seenAfter.push(`${name}:${seen.id}`);
            },
    },
  });

  it.each([
    ["the waiting hook never settles", "never", "sync"],
    ["the waiting hook resolves when aborted", "resolve", "sync"],
    ["the waiting hook rejects when aborted", "reject", "sync"],
    ["the later plugins are async", "resolve", "async"],
  ] as const)("%s: the later plugins never see the call, and it ends blocked naming the close", async (_case, onAbort, style) => {
    seenAfter.length = 0;
    const { host, ran } = await hostWith([waits(onAbort), later("b-after", 2, style), later("c-after", 3, style)], { onHookError: "allow" });
    const pending = [
      host.callTool(call("single")),
      host.checkToolCall(call("checked")),
      host.callTools([call("batch-1"), call("batch-2")], { concurrency: 2 }),
    ];
    await settle();
    await host.close();
    const [single, checked, batch] = await Promise.all(pending);
    await settle();
    expect(seenAfter).toEqual([]);
    expect(ran).toEqual([]);
    expect(single).toMatchObject({ status: "blocked", content: expect.stringContaining("host closed") });
    expect(checked).toMatchObject({ action: "block", message: expect.stringContaining("host closed") });
    expect((batch as { status: string }[]).map((result) => result.status)).toEqual(["blocked", "blocked"]);
  });
});

const asks: Plugin = { name: "change-control", hooks: { pre_tool_call: () => ({ action: "ask", message: "needs a human" }) } };

function countingApprover(answer: boolean): { onAsk: AskHandler; asked: string[] } {
  const asked: string[] = [];
  return { asked, onAsk: (seen, message) => (asked.push(`${seen.id}: ${message}`), answer) };
}

// Broken by: `if (asks.onAsk === undefined) return verdict;` in the gate's `check` (resolveAsk ignored).
describe("checkToolCall without resolveAsk returns the ask unresolved, even when the host has an onAsk", () => {
  it.each([
    ["no options", undefined],
    ["resolveAsk: false", { resolveAsk: false }],
    ["an empty options object", {}],
  ] as const)("%s: the verdict is the ask, and the approver is not asked", async (_case, options) => {
    const approver = countingApprover(true);
    const { host } = await hostWith([asks], { onAsk: approver.onAsk });
    const verdict = await host.checkToolCall(call(), options);
    expect(verdict).toMatchObject({ action: "ask", message: "needs a human", plugin: "change-control" });
    expect(approver.asked).toEqual([]);
  });

  it.each([true, false])("with resolveAsk: true the approver decides (answer %s), once", async (answer) => {
    const approver = countingApprover(answer);
    const { host } = await hostWith([asks], { onAsk: approver.onAsk });
    expect((await host.checkToolCall(call(), { resolveAsk: true })).action).toBe(answer ? "allow" : "block");
    expect(approver.asked).toEqual(["c1: needs a human"]);
  });
});

// Broken by: not replacing the remembered ask with the approver's answer (`answerAsk` in the gate).
describe("the approver is asked once across checkToolCall({ resolveAsk }) and callTool({ skipPreToolCallHook })", () => {
  it.each([
    ["approved: the tool runs once", true, "ok"],
    ["refused: the call is blocked", false, "blocked"],
  ] as const)("%s", async (_case, answer, status) => {
    const approver = countingApprover(answer);
    let hookCalls = 0;
    const counted: Plugin = { name: "counted", hooks: { pre_tool_call: () => void hookCalls++ } };
    const { host, ran } = await hostWith([asks, counted], { onAsk: approver.onAsk });
    const checked = call("c1", { path: "x" });
    expect((await host.checkToolCall(checked, { resolveAsk: true })).action).toBe(answer ? "allow" : "block");
    expect(await host.callTool(checked, { skipPreToolCallHook: true })).toMatchObject({ status });
    expect(approver.asked).toEqual(["c1: needs a human"]);
    expect(hookCalls).toBe(1);
    expect(ran).toEqual(answer ? [{ path: "x" }] : []);
  });

  it("an async approver too", async () => {
    const asked: string[] = [];
    const { host, ran } = await hostWith([asks], { onAsk: async (seen) => (asked.push(seen.id), await settle(), true) });
    await host.checkToolCall(call(), { resolveAsk: true });
    expect((await host.callTool(call(), { skipPreToolCallHook: true })).status).toBe("ok");
    expect(asked).toEqual(["c1"]);
    expect(ran).toHaveLength(1);
  });
});

// Broken by: `return view` instead of `Object.freeze(view)` in `callView`, or by not freezing the snapshot.
describe("every hook sees a frozen call, all the way down", () => {
  interface Seen {
    where: string;
    call: ToolCall;
  }

  function frozenDeep(value: unknown): boolean {
    if (typeof value !== "object" || value === null) return true;
    return Object.isFrozen(value) && Object.values(value).every(frozenDeep);
  }

  function tryToChange(seen: ToolCall): string[] {
    const changed: string[] = [];
    const attempts: [string, () => void][] = [
      ["name", () => ((seen as { name: string }).name = "other")],
      ["args", () => ((seen as { args: unknown }).args = {})],
      ["args.path", () => ((seen.args as Record<string, unknown>).path = "/etc/passwd")],
      ["args.nested.deep", () => ((seen.args.nested as Record<string, unknown[]>).list as unknown[]).push("added")],
    ];
    for (const [what, attempt] of attempts) {
      try {
        attempt();
        changed.push(what);
      } catch {
        // refused: frozen
      }
    }
    return changed;
  }

  it.each([
    ["the first hook (the call as the host snapshotted it)", false],
    ["a hook after a modify (a new view of the merged arguments)", true],
  ])("%s", async (_case, afterModify) => {
    const seen: Seen[] = [];
    const changes: string[][] = [];
    const watcher = (where: string): NonNullable<Plugin["hooks"]> => ({
      pre_tool_call: (viewed) => {
        seen.push({ where, call: viewed });
        changes.push(tryToChange(viewed));
      },
    });
    const plugins: Plugin[] = [
      { name: "a-first", order: 1, hooks: watcher("first") },
      ...(afterModify ? [{ name: "b-modify", order: 2, hooks: { pre_tool_call: () => ({ action: "modify" as const, args: { extra: { list: [1] } } }) } }] : []),
      { name: "c-last", order: 3, hooks: watcher("last") },
    ];
    const onAsk: AskHandler = () => true;
    const { host, ran } = await hostWith(plugins, { onAsk });
    const original = { path: "a.txt", nested: { list: [1, 2] } };
    expect((await host.callTool({ id: "c1", name: "act", args: original })).status).toBe("ok");
    for (const { call: viewed } of seen) {
      expect(Object.isFrozen(viewed)).toBe(true);
      expect(frozenDeep(viewed.args)).toBe(true);
    }
    expect(changes).toEqual([[], []]);
    // Nothing a hook tried reached the tool or the caller's own object.
    expect(ran).toEqual([afterModify ? { ...original, extra: { list: [1] } } : original]);
    expect(original).toEqual({ path: "a.txt", nested: { list: [1, 2] } });
  });

  it("the call handed to onAsk and to post_tool_call is frozen too", async () => {
    const views: ToolCall[] = [];
    const plugins: Plugin[] = [
      { name: "modify-then-ask", hooks: { pre_tool_call: () => ({ action: "modify", args: { added: true } }) } },
      asks,
      { name: "observer", hooks: { post_tool_call: (viewed) => void views.push(viewed) } },
    ];
    const { host } = await hostWith(plugins, { onAsk: (viewed) => (views.push(viewed), true) });
    expect((await host.callTool(call())).status).toBe("ok");
    expect(views).toHaveLength(2);
    for (const viewed of views) expect(Object.isFrozen(viewed) && frozenDeep(viewed.args)).toBe(true);
  });

  // Broken by: `shownCall` returning the call without freezing it (checkToolCall leaves the call unfrozen
  // until a participant is to see it).
  it("checkToolCall and explainToolCall hand hooks, onAsk and the caller a frozen call", async () => {
    const views: ToolCall[] = [];
    const plugins: Plugin[] = [{ name: "watch-then-ask", hooks: { pre_tool_call: (viewed) => (views.push(viewed), { action: "ask", message: "sure?" }) } }];
    const { host } = await hostWith(plugins, { onAsk: (viewed) => (views.push(viewed), true) });
    expect((await host.checkToolCall(call("c1"), { resolveAsk: true })).action).toBe("allow");
    expect((await host.checkToolCall(call("c2"))).action).toBe("ask");
    const explained = await host.explainToolCall(call("c3"));
    views.push(explained.call);
    expect(views).toHaveLength(5);
    for (const viewed of views) expect(Object.isFrozen(viewed) && frozenDeep(viewed.args)).toBe(true);
  });
});
