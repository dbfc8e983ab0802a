/**
 * Scratch measure of the gate against the issue-7 targets (not the official `pnpm bench`): medians of
 * per-round ratios, toolgate and its baseline alternating within each round.
 */
import type { HookContext, Host, Plugin, ToolCall } from "@toolgate/host";

// TOOLGATE_HOST=packages/host/dist/index.js measures the built code (tsx adds a __name call per closure to source).
const { createHost } = (await import(process.env.TOOLGATE_HOST ? new URL(`../${process.env.TOOLGATE_HOST}`, import.meta.url).href : "@toolgate/host")) as typeof import("@toolgate/host");

const call: ToolCall = { id: "call-1", name: "noop", args: { path: "README.md", recursive: false } };
const ctx: HookContext = { plugin: "x", session: { id: "s" }, signal: new AbortController().signal, options: {}, log: { debug() {}, info() {}, warn() {}, error() {} } };
type Hook = (call: ToolCall, ctx: HookContext) => unknown;

function plugins(count: number, style: "sync" | "async"): Plugin[] {
  // Distinct functions, like separate plugin files.
  return Array.from({ length: count }, (_, index) => ({
    name: `p-${String(index).padStart(4, "0")}`,
    hooks: { pre_tool_call: style === "sync" ? new Function("call", "ctx", `return undefined /* ${index} */`) as never : new Function("call", "ctx", `return (async () => undefined /* ${index} */)()`) as never },
  }));
}
const hooksOf = (list: Plugin[]) => list.map((plugin) => plugin.hooks!.pre_tool_call as Hook);
const host = (list: Plugin[]): Promise<Host> => createHost({ plugins: list, pluginsDir: false, configFile: false, logger: false, tools: { noop: { execute() {} } } });

async function time(fn: () => Promise<unknown>, calls: number): Promise<number> {
  const start = process.hrtime.bigint();
  for (let index = 0; index < calls; index++) await fn();
  return Number(process.hrtime.bigint() - start) / calls;
}

async function compare(label: string, subject: () => Promise<unknown>, baseline: () => Promise<unknown>, target: number, calls = 2000, rounds = 15) {
  for (let warm = 0; warm < 3; warm++) (await time(subject, calls), await time(baseline, calls));
  const ratios: number[] = [];
  let subjectNs = 0;
  let baselineNs = 0;
  for (let round = 0; round < rounds; round++) {
    const a = await time(subject, calls);
    const b = await time(baseline, calls);
    ratios.push(a / b);
    subjectNs += a;
    baselineNs += b;
  }
  ratios.sort((x, y) => x - y);
  const median = ratios[Math.floor(rounds / 2)]!;
  console.log(`${label.padEnd(58)} ${(subjectNs / rounds).toFixed(0).padStart(7)} ns vs ${(baselineNs / rounds).toFixed(0).padStart(7)} ns  ratio ${median.toFixed(2)}  target ≤${target} ${median <= target ? "PASS" : "FAIL"}`);
}

const execute = (): void => undefined;
const bare = async () => await execute();

const zero = await host([]);
await compare("0 plugins: callTool vs one bare awaited call", () => zero.callTool(call), bare, 1.5);
await compare("0 plugins: checkToolCall vs one bare awaited call", () => zero.checkToolCall(call), bare, 1.5);

for (const count of [10, 100]) {
  const list = plugins(count, "sync");
  const hooks = hooksOf(list);
  const h = await host(list);
  const thenableLoop = async () => {
    for (const hook of hooks) {
      const value = hook(call, ctx);
      if (value !== null && typeof value === "object" && typeof (value as PromiseLike<unknown>).then === "function") await value;
    }
  };
  await compare(`${count} sync: checkToolCall vs thenable-only loop`, () => h.checkToolCall(call), thenableLoop, 1.5, count === 100 ? 500 : 2000);
  await compare(`${count} sync: callTool vs thenable-only loop + tool`, () => h.callTool(call), async () => (await thenableLoop(), await execute()), 1.5, count === 100 ? 500 : 2000);
}

for (const count of [10, 100]) {
  const list = plugins(count, "async");
  const hooks = hooksOf(list);
  const h = await host(list);
  const awaitedLoop = async () => {
    for (const hook of hooks) await hook(call, ctx);
  };
  await compare(`${count} async: checkToolCall vs awaited loop`, () => h.checkToolCall(call), awaitedLoop, 1.2, count === 100 ? 200 : 1000);
  await compare(`${count} async: callTool vs awaited loop + tool`, () => h.callTool(call), async () => (await awaitedLoop(), await execute()), 1.2, count === 100 ? 200 : 1000);
}

{
  const h = await host(plugins(1, "async"));
  const hooks = hooksOf(plugins(1, "async"));
  const batch = Array.from({ length: 256 }, (_, index) => ({ ...call, id: `c${index}` }));
  const pool = async () => {
    const results = new Array(batch.length);
    let next = 0;
    const worker = async () => {
      while (next < batch.length) {
        const index = next++;
        for (const hook of hooks) await hook(batch[index]!, ctx);
        results[index] = await execute();
      }
    };
    await Promise.all(Array.from({ length: 64 }, worker));
    return results;
  };
  await compare("callTools 256 calls, concurrency 64, 1 async plugin vs pool", () => h.callTools(batch, { concurrency: 64 }), pool, 2, 50);
}
process.exit(0);
