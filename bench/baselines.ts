import type { ToolCall } from "@toolgate/host";
import { createHooks } from "hookable";
import { AsyncSeriesBailHook, SyncBailHook } from "tapable";
import type { BenchHook, BlockDecision, HookSet } from "./hook-functions.js";

/**
 * One way to run a set of hooks on a call. `run` returns what that way naturally returns (a promise or
 * not; the benchmark awaits it either way) and `blocked` reads the decision out of it afterwards, so
 * reading the decision is not part of what is timed.
 */
export interface Contender {
  name: string;
  run(call: ToolCall): unknown;
  blocked(result: unknown): boolean;
}

/** What the baselines hand hooks as `ctx`: built once, shared, never read by the bench hooks. */
const sharedContext = Object.freeze({ plugin: "baseline", session: { id: "bench" }, options: {} });

const isBlock = (result: unknown) => result !== undefined;

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === "object" || typeof value === "function") && value !== null && typeof (value as { then?: unknown }).then === "function";
}

/**
 * One awaited call of an `async` function that does nothing: the floor of any API that returns a promise,
 * as `checkToolCall` does. Runs no hook, so it never blocks; it is compared with toolgate at 0 plugins.
 */
function bareCall(): Contender {
  async function nothing(_call: ToolCall): Promise<BlockDecision | undefined> {
    return undefined;
  }
  return { name: "bare call", run: nothing, blocked: isBlock };
}

/** The obvious loop: await every hook, return the first block. */
function awaitedLoop({ hooks }: HookSet): Contender {
  return {
    name: "awaited loop",
    async run(call) {
      for (const hook of hooks) {
        const decision = await hook(call, sharedContext);
        if (decision !== undefined) return decision;
      }
      return undefined;
    },
    blocked: isBlock,
  };
}

/** The careful loop: await a hook's result only when it is a thenable, so sync hooks cost no microtask. */
function thenableLoop({ hooks }: HookSet): Contender {
  return {
    name: "thenable loop",
    async run(call) {
      for (const hook of hooks) {
        let decision = hook(call, sharedContext);
        if (isThenable(decision)) decision = await decision;
        if (decision !== undefined) return decision;
      }
      return undefined;
    },
    blocked: isBlock,
  };
}

/** webpack's tapable: a `SyncBailHook` for sync hooks, an `AsyncSeriesBailHook` (`tapPromise`) for async ones. */
function tapable(set: HookSet): Contender {
  if (set.style === "sync") {
    const hook = new SyncBailHook<[ToolCall, unknown], BlockDecision | undefined>(["call", "ctx"]);
    for (const [index, fn] of set.hooks.entries()) hook.tap(`plugin-${index}`, fn as (call: ToolCall, ctx: unknown) => BlockDecision | undefined);
    return { name: "tapable", run: (call) => hook.call(call, sharedContext), blocked: isBlock };
  }
  const hook = new AsyncSeriesBailHook<[ToolCall, unknown], BlockDecision | undefined>(["call", "ctx"]);
  for (const [index, fn] of set.hooks.entries()) hook.tapPromise(`plugin-${index}`, fn as (call: ToolCall, ctx: unknown) => Promise<BlockDecision | undefined>);
  return { name: "tapable", run: (call) => hook.promise(call, sharedContext), blocked: isBlock };
}

interface Collected {
  decision: BlockDecision | undefined;
}

/**
 * unjs/hookable's `callHook`. It ignores what hooks return, so each hook is registered behind a small
 * adapter that keeps the first block: the work toolgate and the loops do when they read a result.
 */
function hookable({ hooks }: HookSet): Contender {
  const hookable = createHooks<{ pre_tool_call: (call: ToolCall, ctx: unknown, collected: Collected) => Promise<void> | void }>();
  for (const hook of hooks) hookable.hook("pre_tool_call", collecting(hook));
  return {
    name: "hookable",
    run(call) {
      const collected: Collected = { decision: undefined };
      const pending = hookable.callHook("pre_tool_call", call, sharedContext, collected);
      return pending === undefined ? collected.decision : pending.then(() => collected.decision);
    },
    blocked: isBlock,
  };
}

function collecting(hook: BenchHook) {
  return (call: ToolCall, ctx: unknown, collected: Collected): Promise<void> | void => {
    const result = hook(call, ctx);
    if (!isThenable(result)) {
      collected.decision ??= result;
      return;
    }
    return result.then((decision) => {
      collected.decision ??= decision as BlockDecision | undefined;
    });
  };
}

/** Every baseline over one hook set, in the order the table prints them. */
export function baselines(set: HookSet): Contender[] {
  return [bareCall(), awaitedLoop(set), thenableLoop(set), tapable(set), hookable(set)];
}
