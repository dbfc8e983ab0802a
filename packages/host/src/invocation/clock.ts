let clock: typeof performance | undefined;

/**
 * `performance.now()`, the gate's clock, read once per hook. Looking up the global `performance` was about
 * a quarter of each read (~12 of ~52 ns here), so the object is kept after the first read, which is also
 * when perf_hooks loads: a process whose calls run no hook never loads it.
 */
export function nowMs(): number {
  clock ??= performance;
  return clock.now();
}
