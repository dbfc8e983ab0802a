/**
 * The policy-language rows of `pnpm bench`: what a `type: "cedar"` hook of 50 policies and a `type:
 * "cel"` hook of 50 rules add to `checkToolCall` (the difference of the p50 and p99 of two hosts, one
 * with the hook and one without, deciding the same calls in alternation), and the evaluation alone
 * through the package. The Cedar hook has two rows: policies toolgate judges itself on the bench's
 * calls, and the same policies with a scope it leaves to Cedar. `pnpm bench:cedar` and `pnpm bench:cel` print the same figures on their own.
 */
import { markdownTable } from "./table.js";

export interface Percentiles {
  p50: number;
  p99: number;
}

export interface PolicyHookFigures {
  /** What was measured, for the table's first column. */
  label: string;
  without: Percentiles;
  with: Percentiles;
  /** The package's own evaluation, no gate. */
  alone: Percentiles;
}

const targetP99Us = 100;

export function percentiles(samples: number[]): Percentiles {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
  return { p50: at(50), p99: at(99) };
}

export function added(figures: PolicyHookFigures): Percentiles {
  return { p50: figures.with.p50 - figures.without.p50, p99: figures.with.p99 - figures.without.p99 };
}

export function verdictLine(name: string, figures: PolicyHookFigures): string {
  const p99 = added(figures).p99;
  return `${p99 < targetP99Us ? "PASS" : "FAIL"}: the ${name} adds ${p99.toFixed(1)} µs at p99 (target < ${targetP99Us} µs)`;
}

function policyHookTable(rows: readonly PolicyHookFigures[]): string {
  const us = (value: number) => value.toFixed(1);
  return markdownTable(
    ["policy hook", "added p50 µs", "added p99 µs", "target p99", "alone p50 µs", "alone p99 µs"],
    rows.map((figures) => {
      const more = added(figures);
      const pass = more.p99 < targetP99Us ? "PASS" : "FAIL";
      return [figures.label, us(more.p50), us(more.p99), `< ${targetP99Us} ${pass}`, us(figures.alone.p50), us(figures.alone.p99)];
    }),
    (column) => column > 0,
  );
}

/** Both rows, measured one after the other, as `pnpm bench` prints them. */
export async function printPolicyHookRows(quick: boolean): Promise<void> {
  const [{ measureCedarHook }, { measureCelHook }] = await Promise.all([import("./cedar.bench.js"), import("./cel.bench.js")]);
  const rows = [await measureCedarHook(quick), await measureCedarHook(quick, true), await measureCelHook(quick)];
  console.log(`\nPolicy languages: what a hook adds to checkToolCall${quick ? " (--quick: rough figures)" : ""}\n`);
  console.log(policyHookTable(rows));
}
