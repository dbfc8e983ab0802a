import type { Verdict } from "@toolgate/plugin-sdk";
import { callView } from "../call/freeze-call.js";
import { HookInvocationContext } from "../invocation/hook-context.js";
import { PendingHook, runCallHook } from "../invocation/run-hook.js";
import type { HookEntry } from "../registry/registry.js";
import { absorb } from "./absorb.js";
import { conclude } from "./participants.js";
import type { PolicyRun } from "./policy-run.js";
import { nowMs } from "../invocation/clock.js";

// hookSeq: every hook in plugin order, each on the arguments as the ones before left them; a block
// does not stop the run (every plugin is told, and the record shows them all).

/** The run's verdict: synchronous while every hook is, else a promise settled by the last hook's return. */
export function runSequence(run: PolicyRun): Verdict | Promise<Verdict> {
  const pending = advance(run);
  if (pending === undefined) return conclude(run);
  return new Promise<Verdict>((resolve) => {
    run.resolve = resolve;
    run.resume = (outcome) => resume(run, outcome);
    pending.whenSettled(run.resume);
  });
}

/** Runs hooks from `run.next` on, and stops at the first pending async hook (returned) or after the last. */
function advance(run: PolicyRun): PendingHook | undefined {
  const { hooks, listener } = run;
  // Each hook's time is measured from here or from the previous hook's return (`runCallHook`).
  if (run.next < hooks.length) run.startedAt = nowMs();
  while (run.next < hooks.length) {
    const entry = hooks[run.next++]!;
    const began = run.startedAt;
    const outcome = invoke(entry, run);
    // No opinion, the most common answer, needs no reading at all.
    if (outcome === undefined) listener?.none(entry.plugin, entry.source, run.startedAt - began, entry.shadow);
    else if (!PendingHook.is(outcome)) absorb(outcome, entry, run, run.startedAt - began);
    else {
      run.awaiting = entry;
      run.awaitingSince = began;
      return outcome;
    }
  }
  return undefined;
}

/** An async hook settled: its outcome is folded in and the run goes on, or ends blocked after close. */
function resume(run: PolicyRun, outcome: unknown): void {
  absorb(outcome, run.awaiting!, run, run.listener ? nowMs() - run.awaitingSince : 0);
  // After close no more plugin code runs for this call.
  const pending = run.runtime.closed ? undefined : advance(run);
  if (pending !== undefined) pending.whenSettled(run.resume!);
  else run.resolve!(conclude(run));
}

function invoke(entry: HookEntry, run: PolicyRun): unknown {
  const { runtime } = run;
  if (run.view.args !== run.aggregate.args) run.view = callView(run.call, run.aggregate.args);
  const ctx =
    run.session === runtime.session
      ? (entry.spareContext ??= new HookInvocationContext(entry.plugin, runtime.session, entry.owner.options, entry.owner.log))
      : new HookInvocationContext(entry.plugin, run.session, entry.owner.options, entry.owner.log);
  const outcome = runCallHook(entry, ctx, entry.deadlines ?? runtime.deadlines, run.view, run);
  // A pending hook may still be aborted through its ctx, so that ctx is never handed to another call.
  if (PendingHook.is(outcome)) entry.spareContext = undefined;
  return outcome;
}
