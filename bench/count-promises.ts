import { createHook } from "node:async_hooks";

/**
 * Promises created per `run()` (async_hooks PROMISE inits) over `calls` sequential runs, the lowest of
 * `attempts` measures. The count includes the caller's own `await`, so compare counts with each other
 * (0 vs 100 plugins, toolgate vs a hand loop), not with zero. One run happens first, outside the count,
 * so lazy one-time setup is not charged to every call. Shared by the benchmark and the allocation test.
 */
export async function promisesPerCall(run: () => Promise<unknown>, calls = 200, attempts = 1): Promise<number> {
  await run();
  let lowest = Number.POSITIVE_INFINITY;
  for (let attempt = 0; attempt < attempts; attempt++) {
    let created = 0;
    const counter = createHook({
      init(_asyncId, type) {
        if (type === "PROMISE") created++;
      },
    });
    counter.enable();
    try {
      for (let index = 0; index < calls; index++) await run();
    } finally {
      counter.disable();
    }
    lowest = Math.min(lowest, created / calls);
  }
  return lowest;
}
