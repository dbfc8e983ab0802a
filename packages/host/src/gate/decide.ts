import { PreToolCallDecisionSchema, type SessionInfo, type ToolArgs, type ToolCall, type Verdict } from "@toolgate/plugin-sdk";
import * as v from "valibot";
import type { EventBus } from "../events.js";
import type { HostLogger } from "../logger.js";
import type { HookEntry, PluginRegistry } from "../registry/registry.js";
import { validationMessage } from "../validation/summarize-issues.js";
import { addDecision, createAggregate, toVerdict, type Aggregate } from "./aggregate.js";
import type { DecisionMemo } from "./decision-memo.js";
import { callView, freezeArgs } from "./freeze-call.js";
import { HookInvocationContext } from "./hook-context.js";
import { HookFailure, runHook, type HookRuntime } from "./run-hook.js";
import { isThenable } from "./is-thenable.js";

export interface GateDependencies {
  registry: PluginRegistry;
  runtime: HookRuntime;
  events: EventBus;
  logger: HostLogger;
  session: SessionInfo;
  onHookError: "block" | "allow";
}

/** The one choke point: every execution path asks `decide` and nothing else runs `pre_tool_call`. */
export interface Gate {
  /**
   * Runs every plugin's `pre_tool_call` once, in plugin order, and folds the answers into a verdict. With
   * `memo`, the verdict is remembered there before it is returned (for `skipPreToolCallHook`).
   */
  decide(call: ToolCall, memo?: DecisionMemo): Verdict | Promise<Verdict>;
}

export function createGate(deps: GateDependencies): Gate {
  const warnedInvalid = new Set<string>();

  function absorb(outcome: unknown, entry: HookEntry, aggregate: Aggregate, call: ToolCall): void {
    if (outcome === undefined) return;
    if (outcome instanceof HookFailure) return absorbFailure(outcome, entry, aggregate, call);
    const parsed = v.safeParse(PreToolCallDecisionSchema, outcome);
    if (parsed.success) return addDecision(aggregate, parsed.output, entry.plugin);
    reportInvalid(outcome, validationMessage(parsed.issues), entry, call);
  }

  function absorbFailure(failure: HookFailure, entry: HookEntry, aggregate: Aggregate, call: ToolCall): void {
    const { error } = failure;
    if (failure.timedOut) deps.events.emit("hook:timeout", { plugin: entry.plugin, hook: entry.hook, call, timeoutMs: deps.runtime.timeoutMs });
    deps.events.emit("hook:error", { plugin: entry.plugin, hook: entry.hook, call, error });
    if (deps.onHookError === "block") {
      addDecision(aggregate, { action: "block", message: `${error.message} (failing closed)` }, entry.plugin);
    } else {
      deps.logger.warn(`${error.message}; onHookError is "allow", so the call goes on`);
    }
  }

  function reportInvalid(value: unknown, reason: string, entry: HookEntry, call: ToolCall): void {
    deps.events.emit("hook:invalid", { plugin: entry.plugin, hook: entry.hook, call, value, reason });
    if (warnedInvalid.has(entry.plugin)) return;
    warnedInvalid.add(entry.plugin);
    deps.logger.warn(`plugin "${entry.plugin}": pre_tool_call returned an invalid result (${reason}); it is ignored as no opinion`);
  }

  function invoke(entry: HookEntry, view: ToolCall) {
    const ctx = new HookInvocationContext(entry.plugin, deps.session, entry.owner.options, entry.owner.log);
    return runHook(entry, ctx, deps.runtime, [view, ctx]);
  }

  /** Hooks see the arguments as merged so far; a new view is made only after a `modify`. */
  function viewFor(call: ToolCall, aggregate: Aggregate, view: ToolCall): ToolCall {
    return aggregate.args === view.args ? view : callView(call, aggregate.args);
  }

  /**
   * `seen` is the frozen copy of the arguments as the caller gave them, taken before any hook ran: the
   * memo compares a later call against it, never against `call.args`, which the caller may change.
   */
  function conclude(call: ToolCall, aggregate: Aggregate, memo: DecisionMemo | undefined, seen: ToolArgs): Verdict {
    const verdict = toVerdict(aggregate);
    memo?.remember(call, verdict, seen);
    return verdict;
  }

  async function finishAsync(
    pending: Promise<unknown>,
    index: number,
    call: ToolCall,
    aggregate: Aggregate,
    view: ToolCall,
    memo: DecisionMemo | undefined,
    seen: ToolArgs,
  ): Promise<Verdict> {
    const hooks = deps.registry.hooks("pre_tool_call");
    absorb(await pending, hooks[index]!, aggregate, view);
    for (let i = index + 1; i < hooks.length; i++) {
      view = viewFor(call, aggregate, view);
      const entry = hooks[i]!;
      let outcome = invoke(entry, view);
      if (isThenable(outcome)) outcome = await outcome;
      absorb(outcome, entry, aggregate, view);
    }
    return conclude(call, aggregate, memo, seen);
  }

  return {
    decide(call, memo) {
      const hooks = deps.registry.hooks("pre_tool_call");
      const seen = freezeArgs(call.args);
      const aggregate = createAggregate(seen);
      if (hooks.length === 0) return conclude(call, aggregate, memo, seen);
      let view = callView(call, seen);
      for (let i = 0; i < hooks.length; i++) {
        view = viewFor(call, aggregate, view);
        const entry = hooks[i]!;
        const outcome = invoke(entry, view);
        if (isThenable(outcome)) return finishAsync(outcome as Promise<unknown>, i, call, aggregate, view, memo, seen);
        absorb(outcome, entry, aggregate, view);
      }
      return conclude(call, aggregate, memo, seen);
    },
  };
}
