import type { Host } from "@toolgate/host";
import { baselines, type Contender } from "./baselines.js";
import { benchCall, hookSet, type HookSet, type HookStyle, type Outcome } from "./hook-functions.js";
import { createBenchHost, toolgate, type Protection } from "./toolgate-contender.js";

const pluginCounts = [0, 1, 10, 100, 1000] as const;

/** One row of the table: toolgate's gate and every baseline over the same hook functions. */
export interface GateScenario {
  plugins: number;
  style: HookStyle;
  outcome: Outcome;
  protection: Protection;
  set: HookSet;
  host: Host;
  toolgate: Contender;
  baselines: Contender[];
}

/**
 * Every plugin count, sync and async, passing and blocked. With no plugins there is nothing to be sync,
 * async or blocking, so that is a single row.
 */
export async function createGateScenarios(counts: readonly number[] = pluginCounts, protection: Protection = "on"): Promise<GateScenario[]> {
  const scenarios: GateScenario[] = [];
  for (const plugins of counts) {
    for (const style of plugins === 0 ? (["sync"] as const) : (["sync", "async"] as const)) {
      for (const outcome of plugins === 0 ? (["pass"] as const) : (["pass", "block"] as const)) {
        scenarios.push(await createGateScenario(plugins, style, outcome, protection));
      }
    }
  }
  return scenarios;
}

export async function createGateScenario(plugins: number, style: HookStyle, outcome: Outcome, protection: Protection = "on"): Promise<GateScenario> {
  const set = hookSet(plugins, style, outcome);
  const host = await createBenchHost(set.plugins(), undefined, protection);
  return { plugins, style, outcome, protection, set, host, toolgate: toolgate(host), baselines: baselines(set) };
}

/** Whether each contender blocked the bench call, by contender name. */
export async function decisionsOf(scenario: GateScenario): Promise<Map<string, boolean>> {
  const decisions = new Map<string, boolean>();
  for (const contender of [scenario.toolgate, ...scenario.baselines]) {
    decisions.set(contender.name, contender.blocked(await contender.run(benchCall)));
  }
  return decisions;
}

/**
 * A benchmark of the wrong thing is worse than none: every contender must decide the call as the hooks
 * say (the bare call, which runs no hook, must let it through).
 */
export async function assertFairDecisions(scenario: GateScenario): Promise<void> {
  for (const [name, blocked] of await decisionsOf(scenario)) {
    const expected = name !== "bare call" && scenario.outcome === "block";
    if (blocked !== expected) {
      throw new Error(
        `${name} ${blocked ? "blocked" : "passed"} the call with ${scenario.plugins} ${scenario.style} plugins (${scenario.outcome}); expected it to ${expected ? "block" : "pass"}`,
      );
    }
  }
}

/**
 * The rows the gate's targets are judged on, with `protectPolicy: "off"`: the gate alone. The protection
 * of toolgate's own policy is a participant whose cost is the file system's by construction (two
 * `lstat`s for `README.md`); the default rows, protection on, are printed beside these as figures.
 */
export async function createTargetScenarios(): Promise<GateScenario[]> {
  const rows = [
    [0, "sync"],
    [10, "sync"],
    [10, "async"],
    [100, "async"],
  ] as const;
  const scenarios: GateScenario[] = [];
  for (const [plugins, style] of rows) scenarios.push(await createGateScenario(plugins, style, "pass", "off"));
  return scenarios;
}
