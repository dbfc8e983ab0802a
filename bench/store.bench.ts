/**
 * `tsx bench/store.bench.ts [--quick]`: what a decision costs on each store backend. One host per
 * backend with rate-limit (a reservation per call, settled when the call ends), calls made one after
 * another; prints the median and p95 per call. Redis runs on a private `redis-server` on 127.0.0.1
 * (skipped, saying so, when the binary is missing). Runs the workspace sources, not `dist/`.
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHost, type Host } from "@toolgate/host";
import rateLimit from "../plugins/rate-limit/src/index.js";
import { findRedisServer, startRedisServer } from "../test/store/helpers/redis-server.js";

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

async function measure(label: string, window: string, host: Host): Promise<Row> {
  const call = () => host.callTool({ id: randomUUID(), name: "work", args: {} });
  for (let i = 0; i < warmup; i++) await call();
  const samples: number[] = [];
  const started = performance.now();
  for (let i = 0; i < calls; i++) {
    const before = performance.now();
    const result = await call();
    samples.push(performance.now() - before);
    if (result.status !== "ok") throw new Error(`${label}: a call was ${result.status}: ${result.content}`);
  }
  const elapsed = performance.now() - started;
  await host.close();
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
} finally {
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
}

console.log(`\none decision per call, rate-limit reserving and committing; ${calls} sequential calls per row (Node ${process.version})\n`);
console.log("| store | window | median per call | p95 per call | calls/s, one after another |");
console.log("|---|---|---|---|---|");
for (const row of rows) console.log(`| ${row.store} | ${row.window} | ${row.medianUs} µs | ${row.p95Us} µs | ${row.callsPerSecond} |`);
