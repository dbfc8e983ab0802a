let clock: typeof performance | undefined;

/**
 * `performance.now()`, the gate's clock, read once per hook: the global `performance` is a lookup that
 * costs as much again as a quarter of the read itself, so the object is kept here after the first read
 * (which is also when perf_hooks loads: a process whose calls run no hook never loads it).
 */
export function nowMs(): number {
  clock ??= performance;
  return clock.now();
}
