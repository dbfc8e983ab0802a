import { afterAll, describe, expect, it } from "vitest";
import type { Hooks } from "@toolgate/host";
import { baselines } from "../../bench/baselines.js";
import { createPoolComparison, poolCalls, type PoolComparison } from "../../bench/call-tools-pool.js";
import { createGateScenario, createTargetScenarios, decisionsOf, type GateScenario } from "../../bench/gate-scenarios.js";
import { benchCall, hookSet, type BenchHook, type HookSet } from "../../bench/hook-functions.js";
import { measure } from "../../bench/measure.js";
import { createBenchHost, toolgate } from "../../bench/toolgate-contender.js";

// The benchmark compares toolgate with hand-written loops, tapable and hookable. Those comparisons are
// fair only if every contender runs the same hooks and reaches the same decision: a differential test.
// No timing is asserted here; speed is read from `pnpm bench`.

const open: { host: { close(): Promise<void> } }[] = [];
afterAll(async () => {
  await Promise.all(open.map(({ host }) => host.close()));
});

async function scenario(...args: Parameters<typeof createGateScenario>): Promise<GateScenario> {
  const created = await createGateScenario(...args);
  open.push(created);
  return created;
}

const cases = [1, 10, 100].flatMap((plugins) =>
  (["sync", "async"] as const).flatMap((style) => (["pass", "block"] as const).map((outcome) => ({ plugins, style, outcome }))),
);

describe("bench contenders", () => {
  it.each(cases)("$plugins $style plugins that $outcome: every contender decides as toolgate does", async ({ plugins, style, outcome }) => {
    const decisions = await decisionsOf(await scenario(plugins, style, outcome));
    const blocked = outcome === "block";
    expect(Object.fromEntries(decisions)).toEqual({
      toolgate: blocked,
      "bare call": false,
      "awaited loop": blocked,
      "thenable loop": blocked,
      tapable: blocked,
      hookable: blocked,
    });
  });

  it.each(["sync", "async"] as const)("every contender calls each of 10 %s hooks exactly once per call", async (style) => {
    const calls: number[] = [];
    const counting =
      (hook: BenchHook, index: number): BenchHook =>
      (call, ctx) => {
        calls[index] = (calls[index] ?? 0) + 1;
        return hook(call, ctx);
      };
    const original = hookSet(10, style, "block");
    const hooks = original.hooks.map(counting);
    const set: HookSet = {
      ...original,
      hooks,
      plugins: () => hooks.map((hook, index) => ({ name: `counted-${index}`, hooks: { pre_tool_call: hook as NonNullable<Hooks["pre_tool_call"]> } })),
    };
    const host = await createBenchHost(set.plugins());
    open.push({ host });
    for (const contender of [toolgate(host), ...baselines(set)]) {
      calls.length = 0;
      await contender.run(benchCall);
      const expected = contender.name === "bare call" ? [] : Array(10).fill(1);
      expect({ contender: contender.name, calls }).toEqual({ contender: contender.name, calls: expected });
    }
  });

  it("the rows the targets are judged on run with the protection off, and every contender passes the call", async () => {
    const rows = await createTargetScenarios();
    open.push(...rows);
    expect(rows.map(({ plugins, style, protection }) => `${plugins} ${style} ${protection}`)).toEqual([
      "0 sync off",
      "10 sync off",
      "10 async off",
      "100 async off",
    ]);
    for (const row of rows) expect([...(await decisionsOf(row)).values()]).toEqual([false, false, false, false, false, false]);
  });

  it("callTools with the protection off returns what the hand-written pool returns", async () => {
    const pool = await createPoolComparison("off");
    open.push(pool);
    const pick = (results: unknown) => (results as { callId: string; status: string }[]).map(({ callId, status }) => `${callId} ${status}`);
    expect(pick(await pool.toolgate.run(benchCall))).toEqual(pick(await pool.handPool.run(benchCall)));
  });

  it("with no plugins nobody blocks", async () => {
    const decisions = await decisionsOf(await scenario(0, "sync", "pass"));
    expect([...decisions.values()]).toEqual([false, false, false, false, false, false]);
  });

  it("a blocking set blocks through its last hook only, so every hook runs", async () => {
    const set = hookSet(10, "sync", "block");
    const passingCall = { ...benchCall, args: { path: "/etc/secret-3" } };
    expect(set.hooks.slice(0, -1).map((hook) => hook(benchCall, undefined))).toEqual(Array(9).fill(undefined));
    expect(set.hooks[3]!(passingCall, undefined)).toEqual({ action: "block", message: "plugin 3 protects /etc/secret-3" });
    expect(set.hooks[9]!(benchCall, undefined)).toEqual({ action: "block", message: "plugin 9 blocks every call" });
  });

  it("each plugin's hook is its own function literal, as if from its own file", () => {
    const { hooks, plugins } = hookSet(100, "async", "pass");
    expect(new Set(hooks.map((hook) => hook.toString())).size).toBe(100);
    expect(plugins().map((plugin) => plugin.hooks?.pre_tool_call)).toEqual(hooks);
    expect(hooks.every((hook) => hook.constructor.name === "AsyncFunction")).toBe(true);
  });

  it("callTools and the hand-written pool return the same results in the same order", async () => {
    const pool: PoolComparison = await createPoolComparison();
    open.push(pool);
    const pick = (results: unknown) =>
      (results as { callId: string; status: string; content: string }[]).map(({ callId, status, content }) => ({ callId, status, content }));
    const fromToolgate = pick(await pool.toolgate.run(benchCall));
    expect(fromToolgate).toHaveLength(poolCalls);
    expect(fromToolgate).toEqual(pick(await pool.handPool.run(benchCall)));
    expect(new Set(fromToolgate.map((result) => result.status))).toEqual(new Set(["ok"]));
  });

  it("measure reports every contender, toolgate at a ratio of exactly 1 to itself", async () => {
    const { toolgate, baselines } = await scenario(10, "sync", "pass");
    const [figures] = await measure([{ toolgate, baselines, call: benchCall }], { rounds: 3, warmupRounds: 0, batchMs: 0.2 });
    expect(figures!.map((figure) => figure.name)).toEqual(["toolgate", "bare call", "awaited loop", "thenable loop", "tapable", "hookable"]);
    expect(figures![0]!.ratio).toBe(1);
    for (const figure of figures!) expect(figure.ns).toBeGreaterThan(0);
  });
});
