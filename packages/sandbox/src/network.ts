import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

// Plain JavaScript shipped beside src/ and dist/ alike, so Node runs it as it is, with no build and no toolgate loaded.
const runner = fileURLToPath(new URL("../runner/network-runner.mjs", import.meta.url));

/**
 * The words a contained command starts with when only `allow`ed hosts may be reached: the runner that starts
 * the allow-listing proxy for the command's lifetime, then bubblewrap. On the hook surfaces the hook process
 * is gone when the agent runs the command, so the command starts its proxy itself.
 */
export function networkPrefix(allow: readonly string[]): { before: string[] } | { problem: string } {
  if (!existsSync(runner)) return { problem: `the network runner ${runner} is missing (reinstall @toolgate/sandbox)` };
  return { before: [process.execPath, runner, ...allow.flatMap((host) => ["--allow", host]), "--"] };
}
