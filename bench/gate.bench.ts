/**
 * What the gate costs, next to what it replaces: one bare awaited call, a hand-written awaited loop, a
 * loop that awaits only thenables, tapable and hookable, over the same hook functions; then `createHost`
 * against the number of plugins, and `callTools` against a hand-written pool. Every figure comes from
 * this one run. Targets print PASS or FAIL and never change the exit code: a benchmark reports.
 *
 * The gate's targets are judged on rows with `protectPolicy: "off"`, the gate alone: the protection of
 * toolgate's own policy is a participant whose cost is the file system's by construction (the bench
 * call names `README.md`, and the protection must `lstat` it to see it is no link to toolgate's
 * config). The default rows, protection on, are printed beside them as figures, labelled.
 */
import { availableParallelism } from "node:os";
import { relative } from "node:path";
import { assertSameResults, createPoolComparison, poolCalls, poolConcurrency, poolPlugins } from "./call-tools-pool.js";
import { assertFairDecisions, createGateScenarios, createTargetScenarios, type GateScenario } from "./gate-scenarios.js";
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
  /** Judged: measured with the protection off (the gate alone), except for `createHost`. */
  value: number | undefined;
  /** The same figure with the protection on (the default): printed beside, never judged. */
  protectedValue?: number | undefined;
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
  const gateFigures = await measureGate(scenarios, settings.measure);
  out(
    "`await host.checkToolCall(call)`, protection on (the default; figures, not targets): toolgate ns per call, and toolgate's time ÷ each baseline's (baseline ns per call);",
  );
  out("the bare call (`await nothing()`, an empty async function) is the floor for 0 plugins; every plugin's hook is its own function");
  out(gateTable(scenarios, gateFigures));
  out();

  const unprotected = await createTargetScenarios();
  for (const scenario of unprotected) await assertFairDecisions(scenario);
  const unprotectedFigures = await measureGate(unprotected, settings.measure);
  out(
    'The same with `protectPolicy: "off"`, the gate alone, without the look at the file system the protection takes for `README.md`: the gate\'s targets are judged on these rows',
  );
  out(gateTable(unprotected, unprotectedFigures));
  out();

  const pools = [await createPoolComparison("off"), await createPoolComparison("on")];
  for (const pool of pools) await assertSameResults(pool);
  const poolFigures = await measure(
    pools.map((pool) => ({ toolgate: pool.toolgate, baselines: [pool.handPool], call: benchCall, callsPerRun: poolCalls })),
    settings.measure,
  );
  out(
    `\`host.callTools(${poolCalls} calls, { concurrency: ${poolConcurrency} })\`, ${poolPlugins} sync plugins and an async tool, against a hand-written pool of ${poolConcurrency} workers`,
  );
  out(poolTable(poolFigures));
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
  out('  judged on the rows with `protectPolicy: "off"` (the gate alone); "protection on" is the default row\'s figure, printed beside, not judged');
  const gateRows = { judged: { scenarios: unprotected, figures: unprotectedFigures }, shown: { scenarios, figures: gateFigures } };
  for (const target of [...targets(gateRows, poolFigures, startup), ...recordTargets(records.scenarios, recordFigures)]) out(`  ${formatTarget(target)}`);
  out();
  out(`(${((performance.now() - started) / 1000).toFixed(0)} s; targets are reported, never enforced)`);

  await Promise.all([...scenarios, ...unprotected, ...pools].map((row) => row.host.close()));
}

function measureGate(scenarios: readonly GateScenario[], options: MeasureOptions): Promise<Figure[][]> {
  return measure(
    scenarios.map((scenario) => ({ toolgate: scenario.toolgate, baselines: scenario.baselines, call: benchCall })),
    options,
  );
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

/** The pool rows: protection off (judged) first, then on. */
function poolTable(figures: readonly Figure[][]): string {
  const rows = figures.map(([toolgate, handPool], index) => [
    index === 0 ? "off (target)" : "on (figure)",
    formatNs(toolgate!.ns),
    formatNs(handPool!.ns),
    formatRatio(handPool!.ratio),
  ]);
  return markdownTable(["protection", "toolgate ns/call", "hand-written pool ns/call", "ratio"], rows, (column) => column > 0);
}

function startupTable(figures: readonly StartupFigure[]): string {
  const rows = figures.map((figure) => [String(figure.plugins), formatMs(figure.ms), ((figure.ms * 1000) / figure.plugins).toFixed(1)]);
  return markdownTable(["plugins", "ms", "µs per plugin"], rows, () => true);
}

interface GateRows {
  scenarios: readonly GateScenario[];
  figures: readonly Figure[][];
}

/** A passing row's ratio to a baseline, or undefined when the row was not measured. */
function ratioOf({ scenarios, figures }: GateRows, plugins: number, style: string, baseline: string): number | undefined {
  const index = scenarios.findIndex((scenario) => scenario.plugins === plugins && scenario.style === style && scenario.outcome === "pass");
  return figures[index]?.find((figure) => figure.name === baseline)?.ratio;
}

function targets(rows: { judged: GateRows; shown: GateRows }, pool: readonly Figure[][], startup: readonly StartupFigure[]): Target[] {
  const gateTarget = (label: string, plugins: number, style: string, baseline: string, limit: number, today: string): Target => ({
    label,
    value: ratioOf(rows.judged, plugins, style, baseline),
    protectedValue: ratioOf(rows.shown, plugins, style, baseline),
    limit,
    today,
    unit: "×",
  });
  const perPlugin = (plugins: number) => {
    const figure = startup.find((candidate) => candidate.plugins === plugins);
    return figure && figure.ms / figure.plugins;
  };
  const hundred = perPlugin(100);
  const thousand = perPlugin(1000);
  return [
    gateTarget("0 plugins vs one bare awaited call", 0, "sync", "bare call", 1.5, "6.44× (protection on: 289×)"),
    gateTarget("10 sync plugins vs the thenable loop", 10, "sync", "thenable loop", 1.5, "6.26× (protection on: 67×)"),
    gateTarget("10 sync plugins vs tapable", 10, "sync", "tapable", 2, "protection on: 156×"),
    gateTarget("10 async plugins vs the awaited loop", 10, "async", "awaited loop", 1.2, "protection on: 24.5×"),
    gateTarget("100 async plugins vs the awaited loop", 100, "async", "awaited loop", 1.2, "protection on: 4.30×"),
    {
      label: "createHost linear: time per plugin at 1,000 ÷ at 100",
      value: hundred && thousand ? thousand / hundred : undefined,
      limit: 1.5,
      today: "quadratic, 97 ms for 1,000",
      unit: "×",
    },
    {
      label: `callTools at concurrency ${poolConcurrency} vs a hand-written pool`,
      value: pool[0]?.[1]?.ratio,
      protectedValue: pool[1]?.[1]?.ratio,
      limit: 2,
      today: "protection on: 47×",
      unit: "×",
    },
  ];
}

function recordTable(scenarios: readonly RecordScenario[], figures: readonly Figure[][]): string {
  const rows = scenarios.map((scenario, index) => {
    const [record, none] = figures[index]!;
    return [
      scenario.protection === "off" ? "off (target)" : "on (figure)",
      String(scenario.plugins),
      scenario.mode === "path" ? "back to back" : "per turn, writes included",
      formatNs(record!.ns),
      formatNs(none!.ns),
      formatRatio(none!.ratio),
      formatNs(record!.ns - none!.ns),
    ];
  });
  return markdownTable(["protection", "plugins", "measured", "record ns", "no record ns", "ratio", "added ns"], rows, (column) => column === 1 || column >= 3);
}

function recordTargets(scenarios: readonly RecordScenario[], figures: readonly Figure[][]): Target[] {
  const rows = scenarios.map((scenario, index) => ({ scenario, record: figures[index]![0]!, none: figures[index]![1]! }));
  const backToBack = (protection: string, plugins: number) =>
    rows.find(({ scenario }) => scenario.mode === "path" && scenario.protection === protection && scenario.plugins === plugins);
  return [0, 10].flatMap((plugins) => {
    const judged = backToBack("off", plugins);
    const shown = backToBack("on", plugins);
    // The issue's figure: the time a record adds to a decision, amortised over a loop of decisions.
    const added = (row: typeof judged) => row && (row.record.ns - row.none.ns) / 1000;
    return [
      {
        label: `a record per decision at ${plugins} plugins vs none`,
        value: judged?.none.ratio,
        protectedValue: shown?.none.ratio,
        limit: 1.1,
        today: "new",
        unit: "×",
      },
      {
        label: `time a record adds per decision at ${plugins} plugins`,
        value: added(judged),
        protectedValue: added(shown),
        limit: 1,
        today: "4.09 / 4.32 µs",
        unit: " µs",
      },
    ];
  });
}

function formatTarget(target: Target): string {
  const verdict = target.value === undefined ? "----" : target.value <= target.limit ? "PASS" : "FAIL";
  const value = target.value === undefined ? "not measured" : `${target.value.toFixed(2)}${target.unit}`;
  const shown = target.protectedValue === undefined ? "" : `; protection on: ${target.protectedValue.toFixed(2)}${target.unit}, a figure`;
  return `${verdict}  ${target.label}: ${value} (target ≤ ${target.limit}${target.unit}; was ${target.today}${shown})`;
}
