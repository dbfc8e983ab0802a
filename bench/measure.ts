import type { ToolCall } from "@toolgate/host";
import type { Contender } from "./baselines.js";

/** toolgate and what it is compared with, all doing the same work. */
export interface Comparison {
  toolgate: Contender;
  baselines: readonly Contender[];
  call: ToolCall;
  /** How many hook calls or tool calls one `run` makes, so figures come out per call. @default 1 */
  callsPerRun?: number;
}

export interface Figure {
  name: string;
  /** Median over rounds of the time per call. */
  ns: number;
  /** Median over rounds of toolgate's time / this contender's time in the same round; 1 for toolgate. */
  ratio: number;
}

export interface MeasureOptions {
  rounds: number;
  warmupRounds: number;
  /** Roughly how long the slowest contender's batch takes in one round. */
  batchMs: number;
}

/** Time for `runs` awaited runs back to back, in ns per run. */
async function timeBatch(contender: Contender, call: ToolCall, runs: number): Promise<number> {
  const started = performance.now();
  for (let index = 0; index < runs; index++) await contender.run(call);
  return ((performance.now() - started) * 1e6) / runs;
}

/** Runs per batch: enough that the slowest contender's batch lasts about `batchMs`. */
async function calibrate(contenders: readonly Contender[], call: ToolCall, batchMs: number): Promise<number> {
  let slowest = 0;
  for (const contender of contenders) {
    let runs = 1;
    let ns = await timeBatch(contender, call, runs);
    while (ns * runs < 2e5) {
      runs *= 4;
      ns = await timeBatch(contender, call, runs);
    }
    slowest = Math.max(slowest, ns);
  }
  return Math.max(1, Math.round((batchMs * 1e6) / slowest));
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * Interleaved: every round times one batch of every contender of every comparison, in an order that
 * rotates from round to round, so drift (frequency, GC, other processes) hits all of them alike. Each
 * ratio is taken within one round, and the medians of those ratios are reported: a noisy round moves a
 * median far less than it moves a mean or a ratio of medians.
 */
export async function measure(comparisons: readonly Comparison[], options: MeasureOptions): Promise<Figure[][]> {
  const lineups = comparisons.map((comparison) => [comparison.toolgate, ...comparison.baselines]);
  const calls = comparisons.map((comparison) => comparison.call);
  // Calibrated again after the warm-up: cold code is slower, and would make every timed batch too short.
  let runs = await calibrateAll(lineups, calls, options.batchMs);
  for (let round = 0; round < options.warmupRounds; round++) {
    for (const [index, lineup] of lineups.entries()) await timeRound(lineup, calls[index]!, runs[index]!, round);
  }
  runs = await calibrateAll(lineups, calls, options.batchMs);
  const samples = lineups.map((lineup) => lineup.map(() => [] as number[]));
  for (let round = 0; round < options.rounds; round++) {
    for (const [index, lineup] of lineups.entries()) {
      const timed = await timeRound(lineup, calls[index]!, runs[index]!, round);
      for (const [position, ns] of timed.entries()) samples[index]![position]!.push(ns);
    }
  }
  return comparisons.map((comparison, index) => figures(lineups[index]!, samples[index]!, comparison.callsPerRun ?? 1));
}

async function calibrateAll(lineups: readonly Contender[][], calls: readonly ToolCall[], batchMs: number): Promise<number[]> {
  const runs: number[] = [];
  for (const [index, lineup] of lineups.entries()) runs.push(await calibrate(lineup, calls[index]!, batchMs));
  return runs;
}

async function timeRound(lineup: readonly Contender[], call: ToolCall, runs: number, round: number): Promise<number[]> {
  const timed = new Array<number>(lineup.length);
  for (let step = 0; step < lineup.length; step++) {
    const position = (step + round) % lineup.length;
    timed[position] = await timeBatch(lineup[position]!, call, runs);
  }
  return timed;
}

function figures(lineup: readonly Contender[], samples: readonly number[][], callsPerRun: number): Figure[] {
  const toolgate = samples[0]!;
  return lineup.map((contender, position) => ({
    name: contender.name,
    ns: median(samples[position]!) / callsPerRun,
    ratio: median(toolgate.map((ns, round) => ns / samples[position]![round]!)),
  }));
}
