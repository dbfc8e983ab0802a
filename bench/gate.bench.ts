/**
 * What the gate costs, next to what it replaces: one bare awaited call, a hand-written awaited loop, a
 * loop that awaits only thenables, tapable and hookable, over the same hook functions; then `createHost`
 * against the number of plugins, and `callTools` against a hand-written pool. Every figure comes from
 * this one run. Targets print PASS or FAIL and never change the exit code: a benchmark reports.
 */
import { availableParallelism } from "node:os";
import { relative } from "node:path";
import { assertSameResults, createPoolComparison, poolCalls, poolConcurrency, poolPlugins } from "./call-tools-pool.js";
import { assertFairDecisions, createGateScenarios, createUnprotectedScenario, type GateScenario } from "./gate-scenarios.js";
import { benchCall } from "./hook-functions.js";
import { measureStartup, type StartupFigure } from "./host-startup.js";
import { createRecordBench, type RecordScenario } from "./record-scenarios.js";
import { measure, type Figure, type MeasureOptions } from "./measure.js";
import { formatMs, formatNs, formatRatio, markdownTable } from "./table.js";

export interface BenchOptions {
  /** A smoke run: few, short rounds. The figures are rough. */
  quick: boolean;
  /** The files of `@toolgate/*` being measured, for the header. */
  measured: readonly string[];
}

const full = { measure: { rounds: 31, warmupRounds: 5, batchMs: 25 }, startupRounds: 11 };
const quick = { measure: { rounds: 3, warmupRounds: 1, batchMs: 0.5 }, startupRounds: 1 };

interface Target {
  label: string;
  value: number | undefined;
  limit: number;
  today: string;
  unit: string;
}

export async function runBenchmarks(options: BenchOptions): Promise<void> {
  const started = performance.now();
  const settings = options.quick ? quick : full;
  const out = (line = "") => console.log(line);
  out(
    `toolgate benchmark${options.quick ? " (--quick: rough figures)" : ""}: Node ${process.version}, ${process.platform} ${process.arch}, ${availableParallelism()} CPUs`,
  );
  out(`measuring ${options.measured.map((file) => relative(process.cwd(), file)).join(", ")}`);
  out(describe(settings.measure));
  out();

  const scenarios = await createGateScenarios();
  for (const scenario of scenarios) await assertFairDecisions(scenario);
  const gateFigures = await measure(
    scenarios.map((scenario) => ({ toolgate: scenario.toolgate, baselines: scenario.baselines, call: benchCall })),
    settings.measure,
  );
  out("`await host.checkToolCall(call)`: toolgate ns per call, and toolgate's time ÷ each baseline's (baseline ns per call);");
  out("the bare call (`await nothing()`, an empty async function) is the floor for 0 plugins; every plugin's hook is its own function");
  out(gateTable(scenarios, gateFigures));
  out();

  const unprotected = [await createUnprotectedScenario(0, "sync"), await createUnprotectedScenario(10, "sync"), await createUnprotectedScenario(10, "async")];
  for (const scenario of unprotected) await assertFairDecisions(scenario);
  const unprotectedFigures = await measure(
    unprotected.map((scenario) => ({ toolgate: scenario.toolgate, baselines: scenario.baselines, call: benchCall })),
    settings.measure,
  );
  out('The same with `protectPolicy: "off"` (not a target): the gate alone, without the look at the file system the protection takes for `README.md`');
  out(gateTable(unprotected, unprotectedFigures));
  out();

  const pool = await createPoolComparison();
  await assertSameResults(pool);
  const [poolFigures] = await measure([{ toolgate: pool.toolgate, baselines: [pool.handPool], call: benchCall, callsPerRun: poolCalls }], settings.measure);
  out(
    `\`host.callTools(${poolCalls} calls, { concurrency: ${poolConcurrency} })\`, ${poolPlugins} sync plugins and an async tool, against a hand-written pool of ${poolConcurrency} workers`,
  );
  out(poolTable(poolFigures!));
  out();

  const records = await createRecordBench();
  const recordFigures = await measure(
    records.scenarios.map((scenario) => scenario.comparison),
    settings.measure,
  );
  out("`await host.checkToolCall(call)` with a decision record per call (`decisions.log` set) next to none, sync plugins that pass;");
  out(
    "back to back: awaited decisions in a loop that never yields to timers, so every record is built in the loop (512 at a time) and only the disk writes wait; per turn: one decision per event-loop turn, the writes included",
  );
  out(recordTable(records.scenarios, recordFigures));
  out();
  await records.close();

  const startup = await measureStartup(settings.startupRounds);
  out("`createHost` with n inline sync plugins (median ms)");
  out(startupTable(startup));
  out();

  out("Targets");
  for (const target of [...targets(scenarios, gateFigures, poolFigures!, startup), ...recordTargets(records.scenarios, recordFigures)])
    out(`  ${formatTarget(target)}`);
  out();
  out(`(${((performance.now() - started) / 1000).toFixed(0)} s; targets are reported, never enforced)`);

  await Promise.all([...scenarios.map((scenario) => scenario.host.close()), ...unprotected.map((scenario) => scenario.host.close()), pool.host.close()]);
}

function describe(options: MeasureOptions): string {
  return (
    `${options.rounds} rounds after ${options.warmupRounds} warm-up rounds; per round, every contender awaits a batch of calls ` +
    `(about ${options.batchMs} ms for the slowest), in rotating order. Figures are medians over rounds; a ratio is the median ` +
    "of per-round ratios (below 1: toolgate is faster)."
  );
}

function gateTable(scenarios: readonly GateScenario[], figures: readonly Figure[][]): string {
  const baselineNames = figures[0]!.slice(1).map((figure) => figure.name);
  const rows = scenarios.map((scenario, index) => {
    const [toolgate, ...baselines] = figures[index]!;
    return [
      String(scenario.plugins),
      scenario.plugins === 0 ? "-" : scenario.style,
      scenario.plugins === 0 ? "-" : scenario.outcome === "pass" ? "passes" : "blocked",
      formatNs(toolgate!.ns),
      ...baselines.map((figure) => (figure.name === "bare call" && scenario.plugins > 0 ? "" : `${formatRatio(figure.ratio)} (${formatNs(figure.ns)})`)),
    ];
  });
  return markdownTable(["plugins", "hooks", "call", "toolgate ns", ...baselineNames], rows, (column) => column === 0 || column >= 3);
}

function poolTable([toolgate, handPool]: readonly Figure[]): string {
  return markdownTable(
    ["toolgate ns/call", "hand-written pool ns/call", "ratio"],
    [[formatNs(toolgate!.ns), formatNs(handPool!.ns), formatRatio(handPool!.ratio)]],
    () => true,
  );
}

function startupTable(figures: readonly StartupFigure[]): string {
  const rows = figures.map((figure) => [String(figure.plugins), formatMs(figure.ms), ((figure.ms * 1000) / figure.plugins).toFixed(1)]);
  return markdownTable(["plugins", "ms", "µs per plugin"], rows, () => true);
}

function targets(scenarios: readonly GateScenario[], gate: readonly Figure[][], pool: readonly Figure[], startup: readonly StartupFigure[]): Target[] {
  const ratio = (plugins: number, style: string, baseline: string) => {
    const index = scenarios.findIndex((scenario) => scenario.plugins === plugins && scenario.style === style && scenario.outcome === "pass");
    return gate[index]?.find((figure) => figure.name === baseline)?.ratio;
  };
  const perPlugin = (plugins: number) => {
    const figure = startup.find((candidate) => candidate.plugins === plugins);
    return figure && figure.ms / figure.plugins;
  };
  const hundred = perPlugin(100);
  const thousand = perPlugin(1000);
  return [
    { label: "0 plugins vs one bare awaited call", value: ratio(0, "sync", "bare call"), limit: 1.5, today: "6–8×", unit: "×" },
    { label: "10 sync plugins vs the thenable loop", value: ratio(10, "sync", "thenable loop"), limit: 1.5, today: "6.3×", unit: "×" },
    { label: "10 sync plugins vs tapable", value: ratio(10, "sync", "tapable"), limit: 2, today: "10.7×", unit: "×" },
    { label: "10 async plugins vs the awaited loop", value: ratio(10, "async", "awaited loop"), limit: 1.2, today: "9–11×", unit: "×" },
    { label: "100 async plugins vs the awaited loop", value: ratio(100, "async", "awaited loop"), limit: 1.2, today: "9–11×", unit: "×" },
    {
      label: "createHost linear: time per plugin at 1,000 ÷ at 100",
      value: hundred && thousand ? thousand / hundred : undefined,
      limit: 1.5,
      today: "quadratic, 97 ms for 1,000",
      unit: "×",
    },
    { label: `callTools at concurrency ${poolConcurrency} vs a hand-written pool`, value: pool[1]?.ratio, limit: 2, today: "5.4×", unit: "×" },
  ];
}

function recordTable(scenarios: readonly RecordScenario[], figures: readonly Figure[][]): string {
  const rows = scenarios.map((scenario, index) => {
    const [record, none] = figures[index]!;
    return [
      String(scenario.plugins),
      scenario.mode === "path" ? "back to back" : "per turn, writes included",
      formatNs(record!.ns),
      formatNs(none!.ns),
      formatRatio(none!.ratio),
      formatNs(record!.ns - none!.ns),
    ];
  });
  return markdownTable(["plugins", "measured", "record ns", "no record ns", "ratio", "added ns"], rows, (column) => column === 0 || column >= 2);
}

function recordTargets(scenarios: readonly RecordScenario[], figures: readonly Figure[][]): Target[] {
  return scenarios
    .map((scenario, index) => ({ scenario, record: figures[index]![0]!, none: figures[index]![1]! }))
    .filter(({ scenario }) => scenario.mode === "path")
    .flatMap(({ scenario, record, none }) => [
      { label: `a record per decision at ${scenario.plugins} plugins vs none`, value: none.ratio, limit: 1.1, today: "new", unit: "×" },
      // The issue's figure: the time a record adds to a decision, amortised over a loop of decisions.
      { label: `time a record adds per decision at ${scenario.plugins} plugins`, value: (record.ns - none.ns) / 1000, limit: 1, today: "new", unit: " µs" },
    ]);
}

function formatTarget(target: Target): string {
  const verdict = target.value === undefined ? "----" : target.value <= target.limit ? "PASS" : "FAIL";
  const value = target.value === undefined ? "not measured" : `${target.value.toFixed(2)}${target.unit}`;
  return `${verdict}  ${target.label}: ${value} (target ≤ ${target.limit}${target.unit}; was ${target.today})`;
}
