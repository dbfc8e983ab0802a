/**
 * What running a plugin in a worker thread (`{ isolation: "worker" }`) costs per call, next to the same
 * plugin file loaded in-process. Run: `npx -y pnpm@12.21.0 exec tsx bench/isolation.bench.ts`.
 *
 * Every figure comes from this one run. A sample awaits `callsPerSample` calls (one after another, or in
 * waves of `concurrency` at once); each round times every task, the in-process task right before its
 * isolated twin, and the printed figures are medians over rounds. A benchmark reports, it never fails.
 */
import { createHost, type Host, type PluginEntry, type ToolCall } from "@toolgate/host";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { Bench } from "tinybench";

const callsPerSample = 64;
const concurrency = 16;
const rounds = 5;
const timePerTaskMs = 300;
const warmupPerTaskMs = 100;
const hostStarts = 5;

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const scratch = mkdtempSync(join(tmpdir(), "toolgate-isolation-bench-"));
const passPlugin = join(scratch, "pass.mjs");
writeFileSync(passPlugin, `export default { name: "pass", hooks: { pre_tool_call() {} } };\n`);
const spinPlugin = join(scratch, "spin.mjs");
writeFileSync(spinPlugin, `export default { name: "spin", hooks: { pre_tool_call(call) { if (call.name === "spin") for (;;) {} } } };\n`);
const restarts = 3;
const restartTimeoutMs = 1000;

interface Subject {
  label: string;
  path: string;
  call: ToolCall;
}

const subjects: Subject[] = [
  { label: "no-op pre_tool_call", path: passPlugin, call: { id: "c1", name: "read", args: { path: "README.md", recursive: false } } },
  {
    label: "block-dangerous-shell",
    path: join(repoRoot, "plugins/block-dangerous-shell"),
    call: { id: "c1", name: "bash", kind: "shell", args: { command: "git status && ls -la src | head -20" } },
  },
];

type Mode = "in-process" | "worker";
type Shape = "sequential" | "concurrent";

function entry(subject: Subject, mode: Mode): PluginEntry {
  return mode === "worker" ? [subject.path, {}, { isolation: "worker" }] : [subject.path, {}];
}

function startHost(subject: Subject, mode: Mode): Promise<Host> {
  return createHost({
    plugins: [entry(subject, mode)],
    pluginsDir: false,
    configFile: false,
    logger: false,
    tools: { read: { execute() {} }, bash: { kind: "shell", execute() {} } },
  });
}

/** A benchmark of the wrong thing is worse than none: both hosts must load the plugin and allow the call. */
async function assertAllows(host: Host, subject: Subject): Promise<void> {
  const failed = host.plugins.filter((plugin) => plugin.status !== "loaded");
  if (failed.length > 0) throw new Error(`bench plugin failed to load: ${failed.map((plugin) => plugin.error).join("; ")}`);
  const verdict = await host.checkToolCall(subject.call);
  if (verdict.action !== "allow") throw new Error(`expected ${subject.label} to allow the bench call, got ${JSON.stringify(verdict)}`);
}

function sample(host: Host, call: ToolCall, shape: Shape): () => Promise<void> {
  if (shape === "sequential")
    return async () => {
      for (let index = 0; index < callsPerSample; index++) await host.checkToolCall(call);
    };
  const wave = Array.from({ length: concurrency });
  return async () => {
    for (let index = 0; index < callsPerSample; index += concurrency) await Promise.all(wave.map(() => host.checkToolCall(call)));
  };
}

/** The floor: a bare worker thread that echoes each message, awaited the same way. No toolgate code on either side. */
function createEchoWorker(): { roundTrip(value: unknown): Promise<unknown>; close(): Promise<number> } {
  const worker = new Worker(`const { parentPort } = require("node:worker_threads"); parentPort.on("message", (m) => parentPort.postMessage(m));`, {
    eval: true,
  });
  const pending = new Map<number, (value: unknown) => void>();
  let nextId = 0;
  worker.on("message", ({ id, value }: { id: number; value: unknown }) => {
    pending.get(id)!(value);
    pending.delete(id);
  });
  return {
    roundTrip: (value) =>
      new Promise((resolve) => {
        const id = nextId++;
        pending.set(id, resolve);
        worker.postMessage({ id, value });
      }),
    close: () => worker.terminate(),
  };
}

function echoSample(echo: ReturnType<typeof createEchoWorker>, call: ToolCall, shape: Shape): () => Promise<void> {
  if (shape === "sequential")
    return async () => {
      for (let index = 0; index < callsPerSample; index++) await echo.roundTrip(call);
    };
  const wave = Array.from({ length: concurrency });
  return async () => {
    for (let index = 0; index < callsPerSample; index += concurrency) await Promise.all(wave.map(() => echo.roundTrip(call)));
  };
}

const taskName = (subject: Subject, shape: Shape, mode: Mode) => `${subject.label}/${shape}/${mode}`;
const echoTask = (shape: Shape) => `bare worker/${shape}`;

async function runRound(hosts: Map<string, Host>, echo: ReturnType<typeof createEchoWorker>): Promise<Map<string, number>> {
  const bench = new Bench({ time: timePerTaskMs, warmupTime: warmupPerTaskMs, warmupIterations: 8, iterations: 8, throws: true });
  for (const shape of ["sequential", "concurrent"] as const) bench.add(echoTask(shape), echoSample(echo, subjects[0]!.call, shape));
  for (const subject of subjects)
    for (const shape of ["sequential", "concurrent"] as const)
      for (const mode of ["in-process", "worker"] as const) {
        const host = hosts.get(`${subject.label}/${mode}`)!;
        bench.add(taskName(subject, shape, mode), sample(host, subject.call, shape));
      }
  await bench.run();
  const nsPerCall = new Map<string, number>();
  for (const task of bench.tasks) {
    const { result } = task;
    if (!("latency" in result)) throw new Error(`task ${task.name} did not complete (${result.state})`);
    nsPerCall.set(task.name, (result.latency.mean * 1e6) / callsPerSample);
  }
  return nsPerCall;
}

/** Milliseconds for `createHost` to return ready, median of `hostStarts` starts (the worker's boot included). */
async function startupMs(subject: Subject, mode: Mode): Promise<number> {
  const times: number[] = [];
  for (let index = 0; index < hostStarts; index++) {
    const started = performance.now();
    const host = await startHost(subject, mode);
    times.push(performance.now() - started);
    await host.close();
  }
  return median(times);
}

/**
 * Milliseconds from a cut-off to the next call's verdict: that call waits for the new worker to load.
 * Median of `restarts`, each on a worker that has just been cut off by a spinning hook.
 */
async function restartMs(): Promise<number> {
  const host = await createHost({
    plugins: [[spinPlugin, {}, { isolation: "worker" }]],
    pluginsDir: false,
    configFile: false,
    logger: false,
    hookTimeoutMs: restartTimeoutMs,
  });
  const times: number[] = [];
  for (let index = 0; index < restarts; index++) {
    const cut = await host.checkToolCall({ id: "spin", name: "spin", args: {} });
    if (cut.action !== "block") throw new Error(`expected the spinning hook to be cut off, got ${JSON.stringify(cut)}`);
    const started = performance.now();
    const next = await host.checkToolCall({ id: "next", name: "read", args: {} });
    if (next.action !== "allow") throw new Error(`expected the restarted worker to allow the next call, got ${JSON.stringify(next)}`);
    times.push(performance.now() - started);
  }
  await host.close();
  return median(times);
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function table(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = headers.map((header, column) => Math.max(header.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: readonly string[]) =>
    cells.map((cell, column) => (column < 2 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join("   ");
  return [line(headers), widths.map((width) => "-".repeat(width)).join("   "), ...rows.map(line)].map((text) => `  ${text}`).join("\n");
}

const us = (ns: number) => (ns / 1000).toFixed(2);
const times = (value: number) => `${value.toFixed(1)}×`;

async function main(): Promise<void> {
  const started = performance.now();
  const hosts = new Map<string, Host>();
  for (const subject of subjects)
    for (const mode of ["in-process", "worker"] as const) {
      const host = await startHost(subject, mode);
      await assertAllows(host, subject);
      hosts.set(`${subject.label}/${mode}`, host);
    }

  const echo = createEchoWorker();
  const roundResults: Map<string, number>[] = [];
  for (let round = 0; round < rounds; round++) roundResults.push(await runRound(hosts, echo));
  await echo.close();

  const callRows: string[][] = [];
  for (const subject of subjects)
    for (const shape of ["sequential", "concurrent"] as const) {
      const inProcess = roundResults.map((round) => round.get(taskName(subject, shape, "in-process"))!);
      const worker = roundResults.map((round) => round.get(taskName(subject, shape, "worker"))!);
      const ratio = median(worker.map((value, index) => value / inProcess[index]!));
      const label = shape === "sequential" ? "one at a time" : `${concurrency} in flight`;
      const bare = median(roundResults.map((round) => round.get(echoTask(shape))!));
      callRows.push([subject.label, label, us(median(inProcess)), us(median(worker)), times(ratio), us(median(worker) - median(inProcess)), us(bare)]);
    }
  for (const host of hosts.values()) await host.close();

  const startRows: string[][] = [];
  for (const subject of subjects) {
    const inProcess = await startupMs(subject, "in-process");
    const worker = await startupMs(subject, "worker");
    startRows.push([subject.label, "createHost", inProcess.toFixed(1), worker.toFixed(1), times(worker / inProcess), (worker - inProcess).toFixed(1)]);
  }

  const restart = await restartMs();

  const out = console.log;
  out(`toolgate plugin isolation: Node ${process.version}, ${process.platform} ${process.arch}, ${availableParallelism()} CPUs`);
  out(
    `median of ${rounds} rounds; each sample awaits ${callsPerSample} checkToolCall calls; ratio = median over rounds of worker / in-process timed back to back`,
  );
  out("");
  out("Per call: await host.checkToolCall(call), one plugin, loaded from the same file in-process or in a worker thread");
  out(table(["plugin", "calls", "in-process µs/call", "worker µs/call", "ratio", "added µs/call", "bare round trip µs"], callRows));
  out("  (bare round trip: the same call posted to a worker that only echoes it back, the floor any worker isolation pays)");
  out("");
  out(`Start: createHost with that one plugin, median of ${hostStarts} (the worker imports the module and runs the factory in its thread)`);
  out(table(["plugin", "what", "in-process ms", "worker ms", "ratio", "added ms"], startRows));
  out("");
  out(`Restart: a call made right after a spinning hook was cut off (hookTimeoutMs ${restartTimeoutMs}) waits for the new worker`);
  out(`  ${restart.toFixed(1)} ms to its verdict, median of ${restarts} restarts`);
  out("");
  out(`(${((performance.now() - started) / 1000).toFixed(1)} s)`);
}

try {
  await main();
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
