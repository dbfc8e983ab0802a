/**
 * What a configured command hook costs per call over a raw spawn of the same script (the floor: a
 * process must start either way). Run: `npx -y pnpm@12.21.0 exec tsx bench/command-hook.bench.ts [--quick]`.
 *
 * Each round times one raw spawn (`/bin/sh -c ./hook.sh`, the JSON on stdin, wait for exit) right before
 * one `checkToolCall` through a host whose only policy is that hook; figures are medians over rounds.
 * A benchmark reports, it never fails.
 */
import { spawn } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { createHost } from "@toolgate/host";

const rounds = process.argv.includes("--quick") ? 20 : 200;
const scratch = mkdtempSync(join(tmpdir(), "toolgate-command-hook-bench-"));
const script = join(scratch, "hook.sh");
// Reads its input and says nothing: the cheapest real hook.
writeFileSync(script, "#!/bin/sh\ncat > /dev/null\nexit 0\n");
chmodSync(script, 0o755);
const call = { id: "c1", name: "bash", args: { command: "ls -la" }, kind: "shell" };

function rawSpawn(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn("/bin/sh", ["-c", "./hook.sh"], { cwd: scratch, stdio: ["pipe", "pipe", "pipe"] });
    child.stdout.resume();
    child.stderr.resume();
    child.stdin.end(JSON.stringify({ hook_event_name: "pre_tool_call", tool_name: call.name, tool_input: call.args }));
    child.on("error", reject);
    child.on("close", () => resolve());
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const host = await createHost({ cwd: scratch, pluginsDir: false, configFile: false, logger: false, hooks: { pre_tool_call: [{ command: "./hook.sh" }] } });
const raw: number[] = [];
const hooked: number[] = [];
for (let round = 0; round < rounds + 3; round++) {
  let start = performance.now();
  await rawSpawn();
  const rawMs = performance.now() - start;
  start = performance.now();
  const verdict = await host.checkToolCall(call);
  const hookedMs = performance.now() - start;
  if (verdict.action !== "allow") throw new Error(`the hook should allow, got ${JSON.stringify(verdict)}`);
  // The first rounds warm up the JIT and the file cache.
  if (round >= 3) {
    raw.push(rawMs);
    hooked.push(hookedMs);
  }
}
await host.close();
rmSync(scratch, { recursive: true, force: true });

const rawMedian = median(raw);
const hookedMedian = median(hooked);
console.log(`command hook vs a raw spawn of the same script (${rounds} rounds, median ms per call)`);
console.log("| raw spawn ms | command hook ms | overhead ms | ratio |");
console.log("|-------------:|----------------:|------------:|------:|");
console.log(`| ${rawMedian.toFixed(2)} | ${hookedMedian.toFixed(2)} | ${(hookedMedian - rawMedian).toFixed(2)} | ${(hookedMedian / rawMedian).toFixed(2)}× |`);
