/**
 * `tsx bench/store.bench.ts [--quick]`: what a decision costs on each store backend. One host per
 * backend with rate-limit (a reservation per call, settled when the call ends), calls made one after
 * another; prints the median and p95 per call. Then the gate alone (`checkToolCall`, as `toolgate
 * serve` and `toolgate hook` decide), the hook's two processes (PreToolUse decided by one host,
 * PostToolUse reported to another, which settles through the store), and calls 64 at a time.
 * Redis runs on a private `redis-server` on 127.0.0.1 (skipped, saying so, when the binary is
 * missing). Runs the workspace sources, not `dist/`.
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHost, type Host } from "@toolgate/host";
import rateLimit from "../plugins/rate-limit/src/index.js";
import { findRedisServer, startRedisServer } from "../test/host/store/helpers/redis-server.js";

const quick = process.argv.includes("--quick");
const calls = quick ? 200 : 2000;
const warmup = quick ? 20 : 200;

interface Row {
  store: string;
  window: string;
  medianUs: number;
  p95Us: number;
  callsPerSecond: number;
}

async function openHost(store: string, windowMs: number | undefined): Promise<Host> {
  return createHost({
    configFile: false,
    pluginsDir: false,
    logger: false,
    store,
    // Large enough never to block: every call reserves and commits.
    plugins: windowMs === undefined ? [] : [[rateLimit, { max: 1_000_000_000, windowMs }]],
    tools: { work: { execute: () => "done" } },
  });
}

type Mode = "callTool" | "checkToolCall" | "pre + post (two hosts)";

/** One call as `mode` makes it; resolves once the decision (and, with two hosts, the report) is back. */
function caller(mode: Mode, host: Host, reporter: Host | undefined): () => Promise<{ status: string; content: string }> {
  if (mode === "callTool") return () => host.callTool({ id: randomUUID(), name: "work", args: {} });
  return async () => {
    const call = { id: randomUUID(), name: "work", args: {} };
    const verdict = await host.checkToolCall(call);
    if (verdict.action !== "allow") return { status: verdict.action, content: verdict.message ?? "" };
    await reporter?.postToolCall(call, { callId: call.id, name: "work", status: "ok", content: "done" });
    return { status: "ok", content: "" };
  };
}

async function measure(label: string, window: string, host: Host, mode: Mode = "callTool", reporter?: Host): Promise<Row> {
  const call = caller(mode, host, reporter);
  for (let i = 0; i < warmup; i++) await call();
  const samples: number[] = [];
  const started = performance.now();
  for (let i = 0; i < calls; i++) {
    const before = performance.now();
    const result = await call();
    samples.push(performance.now() - before);
    if (result.status !== "ok") throw new Error(`${label}: a call was ${result.status}: ${result.content}`);
  }
  // Closing waits for the settlements still under way, as a hook process does before it answers.
  await Promise.all([host.close(), reporter?.close()]);
  const elapsed = performance.now() - started;
  samples.sort((a, b) => a - b);
  const at = (q: number) => Math.round(samples[Math.min(samples.length - 1, Math.floor(q * samples.length))]! * 1000);
  return { store: label, window, medianUs: at(0.5), p95Us: at(0.95), callsPerSecond: Math.round((calls * 1000) / elapsed) };
}

// Two windows: 60 s keeps every measured call in the window (the state grows to ~calls entries), 20 ms
// keeps only the last few (the state stays small), since the file backend rewrites the whole namespace.
const windows = [
  { ms: 60_000, label: `60 s (${calls + warmup} entries by the end)` },
  { ms: 20, label: "20 ms (a few entries)" },
];
const rows: Row[] = [];
const extraRows: (Row & { mode: string })[] = [];
const dir = mkdtempSync(join(tmpdir(), "toolgate-store-bench-"));
const redis = findRedisServer() ? await startRedisServer() : undefined;
if (!redis) console.warn("redis: SKIPPED, no `redis-server` binary on PATH (apt-get install -y redis-server)");
try {
  rows.push(await measure("no store plugin (baseline)", "-", await openHost("memory", undefined)));
  for (const window of windows) {
    rows.push(await measure("memory", window.label, await openHost("memory", window.ms)));
    rows.push(await measure("file", window.label, await openHost(`file:${join(dir, String(window.ms))}`, window.ms)));
    if (redis) rows.push(await measure("redis (127.0.0.1)", window.label, await openHost(redis.url, window.ms)));
  }
  const backends = [
    { label: "memory", setting: () => "memory" },
    { label: "file", setting: () => `file:${join(dir, "modes")}` },
    ...(redis ? [{ label: "redis (127.0.0.1)", setting: () => redis.url }] : []),
  ];
  for (const { label, setting } of backends) {
    const window = "60 s";
    extraRows.push({ mode: "checkToolCall", ...(await measure(label, window, await openHost(setting(), 60_000), "checkToolCall")) });
    if (label === "memory") continue; // one process's store: a second host could not settle through it
    const twoHosts = await measure(label, window, await openHost(setting(), 60_000), "pre + post (two hosts)", await openHost(setting(), 60_000));
    extraRows.push({ mode: "pre + post (two hosts)", ...twoHosts });
  }
  if (redis) extraRows.push({ mode: "callTool, 64 at a time", ...(await measureConcurrent("redis (127.0.0.1)", await openHost(redis.url, 60_000), 64)) });
} finally {
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
}

/** Throughput with `inFlight` calls under way at once (no per-call latency: the calls overlap). */
async function measureConcurrent(label: string, host: Host, inFlight: number): Promise<Row> {
  let next = 0;
  const worker = async () => {
    while (next++ < calls) {
      const result = await host.callTool({ id: randomUUID(), name: "work", args: {} });
      if (result.status !== "ok") throw new Error(`${label}: a call was ${result.status}: ${result.content}`);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: inFlight }, worker));
  await host.close();
  const elapsed = performance.now() - started;
  return { store: label, window: "60 s", medianUs: Number.NaN, p95Us: Number.NaN, callsPerSecond: Math.round((calls * 1000) / elapsed) };
}

console.log(`\none decision per call, rate-limit reserving and committing; ${calls} sequential calls per row (Node ${process.version})\n`);
console.log("| store | window | median per call | p95 per call | calls/s, one after another |");
console.log("|---|---|---|---|---|");
for (const row of rows) console.log(`| ${row.store} | ${row.window} | ${row.medianUs} µs | ${row.p95Us} µs | ${row.callsPerSecond} |`);

console.log(`\nthe same, gate only and across two hosts (${calls} calls per row; calls/s include the final settlements)\n`);
console.log("| how | store | median per call | p95 per call | calls/s |");
console.log("|---|---|---|---|---|");
const micro = (value: number) => (Number.isNaN(value) ? "-" : `${value} µs`);
for (const row of extraRows) console.log(`| ${row.mode} | ${row.store} | ${micro(row.medianUs)} | ${micro(row.p95Us)} | ${row.callsPerSecond} |`);
