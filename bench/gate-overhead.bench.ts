/**
 * `pnpm bench`: what the gate costs per tool call, next to a hand-written loop over the same hooks.
 *
 * Every figure comes from this one run. Each sample awaits `callsPerSample` calls one after another, so
 * the timer and the sample's own await are spread over many calls; each task runs in every round, a
 * toolgate task right before its hand-loop baseline, and the printed figure is the median over rounds.
 * The targets are printed as PASS/FAIL but never change the exit code: a benchmark reports, CI gates.
 */
import { availableParallelism } from "node:os";
import { Bench } from "tinybench";
import type { Host } from "@toolgate/host";
import {
  benchCall,
  createBenchHost,
  createHandLoop,
  createHandLoopWithTool,
  passingPlugins,
  preToolCallHooks,
  type HookStyle,
} from "./fixtures.js";
import { promisesPerCall } from "./count-promises.js";

const callsPerSample = 100;
const rounds = 5;
const timePerTaskMs = 200;
const warmupPerTaskMs = 80;
const targetRatio = 1.5;
const targetPlugins = 10;

interface Scenario {
  style: HookStyle;
  plugins: number;
  host: Host;
  /** The four things timed, each one call. */
  gate: () => Promise<unknown>;
  handLoop: () => Promise<unknown>;
  callTool: () => Promise<unknown>;
  handLoopWithTool: () => Promise<unknown>;
}

type Subject = "gate" | "handLoop" | "callTool" | "handLoopWithTool";
const subjects: Subject[] = ["gate", "handLoop", "callTool", "handLoopWithTool"];

async function createScenario(style: HookStyle, count: number): Promise<Scenario> {
  const plugins = passingPlugins(count, style);
  const host = await createBenchHost(plugins);
  const hooks = preToolCallHooks(plugins);
  const handLoop = createHandLoop(hooks);
  const handLoopWithTool = createHandLoopWithTool(hooks, () => undefined);
  const scenario: Scenario = {
    style,
    plugins: count,
    host,
    gate: () => host.checkToolCall(benchCall),
    handLoop: () => handLoop(benchCall),
    callTool: () => host.callTool(benchCall),
    handLoopWithTool: () => handLoopWithTool(benchCall),
  };
  await assertPasses(scenario);
  return scenario;
}

/** A benchmark of the wrong thing is worse than none: every subject must really pass the call. */
async function assertPasses(scenario: Scenario): Promise<void> {
  const failed = scenario.host.plugins.filter((plugin) => plugin.status !== "loaded");
  if (failed.length > 0) throw new Error(`bench plugins failed to load: ${failed.map((plugin) => plugin.error).join("; ")}`);
  const verdict = await scenario.host.checkToolCall(benchCall);
  if (verdict.action !== "allow") throw new Error(`expected the gate to allow the bench call, got ${JSON.stringify(verdict)}`);
  const result = await scenario.host.callTool(benchCall);
  if (result.status !== "ok") throw new Error(`expected the no-op tool to run, got ${JSON.stringify(result)}`);
}

function taskName(scenario: Scenario, subject: Subject): string {
  return `${scenario.style}/${scenario.plugins}/${subject}`;
}

/** One round: every subject of every scenario, toolgate right before its baseline. Returns ns per call by task name. */
async function runRound(scenarios: readonly Scenario[]): Promise<Map<string, number>> {
  const bench = new Bench({ time: timePerTaskMs, warmupTime: warmupPerTaskMs, warmupIterations: 16, iterations: 16, throws: true });
  for (const scenario of scenarios) {
    for (const subject of subjects) {
      const once = scenario[subject];
      bench.add(taskName(scenario, subject), async () => {
        for (let index = 0; index < callsPerSample; index++) await once();
      });
    }
  }
  await bench.run();
  const nsPerCall = new Map<string, number>();
  for (const task of bench.tasks) {
    const { result } = task;
    if (!("latency" in result)) throw new Error(`task ${task.name} did not complete (${result.state})`);
    nsPerCall.set(task.name, (result.latency.mean * 1e6) / callsPerSample);
  }
  return nsPerCall;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

interface Figure {
  toolgate: number;
  baseline: number;
  /** Median over rounds of toolgate / baseline, each pair timed back to back. */
  ratio: number;
}

function figureOf(roundResults: readonly Map<string, number>[], toolgateTask: string, baselineTask: string): Figure {
  const toolgate = roundResults.map((round) => round.get(toolgateTask)!);
  const baseline = roundResults.map((round) => round.get(baselineTask)!);
  return { toolgate: median(toolgate), baseline: median(baseline), ratio: median(toolgate.map((value, index) => value / baseline[index]!)) };
}

function table(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = headers.map((header, column) => Math.max(header.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: readonly string[]) => cells.map((cell, column) => (column < 2 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join("   ");
  return [line(headers), widths.map((width) => "-".repeat(width)).join("   "), ...rows.map(line)].map((text) => `  ${text}`).join("\n");
}

const ns = (value: number) => value.toFixed(0);
const times = (value: number) => `${value.toFixed(2)}×`;
const count = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(2));

async function main(): Promise<void> {
  const started = performance.now();
  const scenarios: Scenario[] = [];
  for (const plugins of [0, 1, 10, 100]) scenarios.push(await createScenario("sync", plugins));
  scenarios.push(await createScenario("async", targetPlugins));

  const promiseCounts = new Map<Scenario, { gate: number; handLoop: number; callTool: number }>();
  for (const scenario of scenarios) {
    promiseCounts.set(scenario, {
      gate: await promisesPerCall(scenario.gate),
      handLoop: await promisesPerCall(scenario.handLoop),
      callTool: await promisesPerCall(scenario.callTool),
    });
  }

  const roundResults: Map<string, number>[] = [];
  for (let round = 0; round < rounds; round++) roundResults.push(await runRound(scenarios));

  const gateRows: string[][] = [];
  const callToolRows: string[][] = [];
  const promiseRows: string[][] = [];
  let targetFigure: Figure | undefined;
  for (const scenario of scenarios) {
    const gate = figureOf(roundResults, taskName(scenario, "gate"), taskName(scenario, "handLoop"));
    const callTool = figureOf(roundResults, taskName(scenario, "callTool"), taskName(scenario, "handLoopWithTool"));
    if (scenario.style === "sync" && scenario.plugins === targetPlugins) targetFigure = gate;
    const label = [scenario.style, String(scenario.plugins)];
    gateRows.push([...label, ns(gate.toolgate), ns(gate.baseline), times(gate.ratio), ns(gate.toolgate - gate.baseline)]);
    callToolRows.push([...label, ns(callTool.toolgate), ns(callTool.baseline), times(callTool.ratio), ns(callTool.toolgate - callTool.baseline)]);
    const promises = promiseCounts.get(scenario)!;
    promiseRows.push([...label, count(promises.gate), count(promises.callTool), count(promises.handLoop)]);
  }

  const syncGatePromises = scenarios.filter((scenario) => scenario.style === "sync").map((scenario) => promiseCounts.get(scenario)!.gate);
  const noPromisePerPlugin = syncGatePromises.every((value) => value === syncGatePromises[0]);
  const withinTarget = targetFigure !== undefined && targetFigure.ratio <= targetRatio;

  const out = console.log;
  out(`toolgate gate overhead: Node ${process.version}, ${process.platform} ${process.arch}, ${availableParallelism()} CPUs`);
  out(`median of ${rounds} rounds; each sample awaits ${callsPerSample} calls in a row; ratio = median over rounds of toolgate / baseline timed back to back`);
  out("(ratio < 1: toolgate is faster. The hand loop awaits every hook, a microtask turn each; the gate calls sync hooks without awaiting them)");
  out("");
  out("Gate alone: await host.checkToolCall(call), against `for (const hook of hooks) await hook(call, ctx)` over the same hook functions");
  out(table(["hooks", "plugins", "toolgate ns/call", "hand loop ns/call", "ratio", "difference ns/call"], gateRows));
  out("");
  out("Gate + execution: await host.callTool(call) on a no-op tool, against the hand loop followed by the tool");
  out(table(["hooks", "plugins", "toolgate ns/call", "hand loop ns/call", "ratio", "difference ns/call"], callToolRows));
  out("");
  out("Promises created per call (async_hooks PROMISE inits, including the caller's own await; compare rows, not with 0)");
  out(table(["hooks", "plugins", "checkToolCall", "callTool", "hand loop"], promiseRows));
  out("");
  out("Targets");
  out(
    `  ${withinTarget ? "PASS" : "FAIL"}  checkToolCall within ${targetRatio}× of the hand loop at ${targetPlugins} sync plugins: ${targetFigure ? times(targetFigure.ratio) : "not measured"}`,
  );
  out(
    `  ${noPromisePerPlugin ? "PASS" : "FAIL"}  no promise per plugin with sync hooks: promises per checkToolCall at 0/1/10/100 plugins = ${syncGatePromises.map(count).join(" / ")}`,
  );
  out("");
  out(`(${((performance.now() - started) / 1000).toFixed(1)} s; targets are reported, never enforced: the exit code is 0)`);

  for (const scenario of scenarios) await scenario.host.close();
}

await main();
