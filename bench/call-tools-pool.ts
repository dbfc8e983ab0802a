import type { Host, ToolCall } from "@toolgate/host";
import type { Contender } from "./baselines.js";
import { hookSet, type BenchHook } from "./hook-functions.js";
import { createBenchHost, type Protection } from "./toolgate-contender.js";

export const poolPlugins = 10;
export const poolConcurrency = 64;
export const poolCalls = 256;

/** What the hand-written pool returns per call: the fields a model message needs. */
interface PoolResult {
  callId: string;
  name: string;
  status: "ok" | "blocked";
  content: string;
}

/** The agent's tool: asynchronous, as tools doing I/O are, and otherwise free. */
const execute = async (_args: ToolCall["args"]) => "done";

export interface PoolComparison {
  host: Host;
  calls: ToolCall[];
  toolgate: Contender;
  handPool: Contender;
}

/** `host.callTools(calls, { concurrency: 64 })` against a hand-written pool of 64 workers over the same sync hooks and tool. */
export async function createPoolComparison(protection: Protection = "on"): Promise<PoolComparison> {
  const set = hookSet(poolPlugins, "sync", "pass");
  const host = await createBenchHost(set.plugins(), execute, protection);
  const calls = Array.from({ length: poolCalls }, (_, index) => ({ id: `call-${index}`, name: "noop", args: { path: "README.md", recursive: false } }));
  const anyBlocked = (results: unknown) => (results as { status: string }[]).some((result) => result.status !== "ok");
  return {
    host,
    calls,
    toolgate: { name: "toolgate", run: () => host.callTools(calls, { concurrency: poolConcurrency }), blocked: anyBlocked },
    handPool: { name: "hand-written pool", run: () => handPool(calls, set.hooks), blocked: anyBlocked },
  };
}

/** The pool is a fair baseline only if it returns what `callTools` returns: same calls, order, status and content. */
export async function assertSameResults(pool: PoolComparison): Promise<void> {
  const summary = (results: unknown) => JSON.stringify((results as PoolResult[]).map(({ callId, status, content }) => [callId, status, content]));
  const [fromToolgate, fromPool] = [summary(await pool.toolgate.run(pool.calls[0]!)), summary(await pool.handPool.run(pool.calls[0]!))];
  if (fromToolgate !== fromPool) throw new Error(`callTools and the hand-written pool disagree:\n${fromToolgate}\n${fromPool}`);
}

/** Workers take the next call until none is left; each gates its call with the thenable loop, then runs the tool. */
async function handPool(calls: readonly ToolCall[], hooks: readonly BenchHook[]): Promise<PoolResult[]> {
  const results = new Array<PoolResult>(calls.length);
  let next = 0;
  const worker = async () => {
    while (next < calls.length) {
      const index = next++;
      results[index] = await gateAndRun(calls[index]!, hooks);
    }
  };
  await Promise.all(Array.from({ length: Math.min(poolConcurrency, calls.length) }, worker));
  return results;
}

async function gateAndRun(call: ToolCall, hooks: readonly BenchHook[]): Promise<PoolResult> {
  for (const hook of hooks) {
    let decision = hook(call, undefined);
    if (decision instanceof Promise) decision = await decision;
    if (decision !== undefined) return { callId: call.id, name: call.name, status: "blocked", content: decision.message };
  }
  return { callId: call.id, name: call.name, status: "ok", content: await execute(call.args) };
}
