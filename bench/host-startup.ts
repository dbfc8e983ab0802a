import { median } from "./measure.js";
import { hookSet } from "./hook-functions.js";
import { createBenchHost } from "./toolgate-contender.js";

const startupCounts = [10, 100, 1000] as const;

export interface StartupFigure {
  plugins: number;
  /** Median `createHost` time, from the call to a ready host. */
  ms: number;
}

/** `createHost` with n inline sync plugins, the counts interleaved round by round; one untimed round first. */
export async function measureStartup(rounds: number): Promise<StartupFigure[]> {
  const sets = startupCounts.map((count) => hookSet(count, "sync", "pass"));
  const samples = sets.map(() => [] as number[]);
  for (let round = -1; round < rounds; round++) {
    for (const [index, set] of sets.entries()) {
      const plugins = set.plugins();
      const started = performance.now();
      const host = await createBenchHost(plugins);
      const elapsed = performance.now() - started;
      await host.close();
      if (round >= 0) samples[index]!.push(elapsed);
    }
  }
  return startupCounts.map((plugins, index) => ({ plugins, ms: median(samples[index]!) }));
}
