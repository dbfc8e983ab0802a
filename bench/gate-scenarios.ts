import { createHost, type Host } from "@toolgate/host";
import { baselines, type Contender } from "./baselines.js";
import { benchCall, hookSet, type HookSet, type HookStyle, type Outcome } from "./hook-functions.js";
import { createBenchHost, toolgate } from "./toolgate-contender.js";

const pluginCounts = [0, 1, 10, 100, 1000] as const;

/** One row of the table: toolgate's gate and every baseline over the same hook functions. */
export interface GateScenario {
  plugins: number;
  style: HookStyle;
  outcome: Outcome;
  set: HookSet;
  host: Host;
  toolgate: Contender;
  baselines: Contender[];
}

/**
 * Every plugin count, sync and async, passing and blocked. With no plugins there is nothing to be sync,
 * async or blocking, so that is a single row.
 */
export async function createGateScenarios(counts: readonly number[] = pluginCounts): Promise<GateScenario[]> {
  const scenarios: GateScenario[] = [];
  for (const plugins of counts) {
    for (const style of plugins === 0 ? (["sync"] as const) : (["sync", "async"] as const)) {
      for (const outcome of plugins === 0 ? (["pass"] as const) : (["pass", "block"] as const)) {
        scenarios.push(await createGateScenario(plugins, style, outcome));
      }
    }
  }
  return scenarios;
}

export async function createGateScenario(plugins: number, style: HookStyle, outcome: Outcome): Promise<GateScenario> {
  const set = hookSet(plugins, style, outcome);
  const host = await createBenchHost(set.plugins());
  return { plugins, style, outcome, set, host, toolgate: toolgate(host), baselines: baselines(set) };
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
 * The same row with `protectPolicy: "off"`: the gate without the protection of toolgate's own policy,
 * which asks the file system about every path a call may change (here `README.md`). Not a target: it
 * shows how much of a row is the gate and how much the file system.
 */
export async function createUnprotectedScenario(plugins: number, style: HookStyle): Promise<GateScenario> {
  const set = hookSet(plugins, style, "pass");
  const host = await createHost({
    plugins: set.plugins(),
    pluginsDir: false,
    configFile: false,
    logger: false,
    protectPolicy: "off",
    tools: { noop: { execute: () => "done" } },
  });
  return { plugins, style, outcome: "pass", set, host, toolgate: toolgate(host), baselines: baselines(set) };
}
