import type { PolicySource, PreToolCallDecision } from "@toolgate/plugin-sdk";
import { describeThrown } from "../errors.js";
import { readDecision } from "../invocation/read-decision.js";
import { failure, HookFailure } from "../invocation/run-hook.js";
import type { HookEntry } from "../registry/registry.js";
import { addDecision } from "./aggregate.js";
import type { PolicyRun } from "./policy-run.js";
import { stricterShadow } from "./shadow.js";

const warnedInvalid = new WeakMap<object, Set<string>>();

/**
 * The one place a participant's answer is folded into the verdict, or, for a shadow participant, only
 * noted as what it would have caused: a shadow never blocks, asks, allows or modifies.
 */
function fold(run: PolicyRun, decision: PreToolCallDecision, plugin: string, source: PolicySource, shadow: boolean): void {
  if (shadow) run.shadow = stricterShadow(run.shadow, decision, source);
  else addDecision(run.aggregate, decision, plugin, source);
}

/** A valid answer (a rule's or a hook's): folded in, then told to whoever listens. */
export function count(run: PolicyRun, decision: PreToolCallDecision, plugin: string, source: PolicySource, shadow: boolean, ms: number): void {
  fold(run, decision, plugin, source, shadow);
  run.listener?.decision(plugin, source, decision, run.aggregate.args, ms, shadow);
}

/** Folds one hook's outcome in (the hook took `ms`); never throws, since it runs inside a hook's settlement. */
export function absorb(outcome: unknown, entry: HookEntry, run: PolicyRun, ms: number): void {
  try {
    absorbOutcome(outcome, entry, run, ms);
  } catch (error) {
    absorbFailure(failure(entry, `returned a value that cannot be read: ${describeThrown(error)}`, "HOOK_FAILED", error), entry, run, ms);
  }
}

function absorbOutcome(outcome: unknown, entry: HookEntry, run: PolicyRun, ms: number): void {
  if (outcome === undefined) return run.listener?.none(entry.plugin, entry.source, ms, entry.shadow);
  if (HookFailure.is(outcome)) return absorbFailure(outcome, entry, run, ms);
  const read = readDecision(outcome);
  if (!read.ok) return reportInvalid(outcome, read.reason, entry, run, ms);
  count(run, read.decision, entry.plugin, entry.source, entry.shadow, ms);
}

/** A hook that failed: reported (unless the run is quiet), and a block when the host fails closed (`fold`). */
function absorbFailure(outcome: HookFailure, entry: HookEntry, run: PolicyRun, ms: number): void {
  const { runtime, listener } = run;
  const { error } = outcome;
  listener?.failure(entry.plugin, entry.source, error.message, outcome.timedOut, ms, entry.shadow);
  const quiet = listener?.quiet === true;
  if (!quiet) {
    const about = { plugin: entry.plugin, hook: entry.hook, call: run.view };
    if (outcome.timedOut) runtime.events.emit("hook:timeout", { ...about, timeoutMs: (entry.deadlines ?? runtime.deadlines).timeoutMs });
    runtime.events.emit("hook:error", { ...about, error });
  }
  if (runtime.onHookError === "block") fold(run, { action: "block", message: `${error.message} (failing closed)` }, entry.plugin, entry.source, entry.shadow);
  // After close() the call ends blocked whatever the setting: saying it goes on would be wrong; a shadow goes on anyway.
  else if (!quiet && !runtime.closed && !entry.shadow) runtime.logger.warn(`${error.message}; onHookError is "allow", so the call goes on`);
}

/** A result that is no decision: ignored as no opinion, reported once per plugin in the log. */
function reportInvalid(value: unknown, reason: string, entry: HookEntry, run: PolicyRun, ms: number): void {
  const { runtime, listener } = run;
  listener?.invalid(entry.plugin, entry.source, reason, ms, entry.shadow);
  if (listener?.quiet === true) return;
  runtime.events.emit("hook:invalid", { plugin: entry.plugin, hook: entry.hook, call: run.view, value, reason });
  let warned = warnedInvalid.get(runtime);
  if (warned === undefined) warnedInvalid.set(runtime, (warned = new Set()));
  if (warned.has(entry.plugin)) return;
  warned.add(entry.plugin);
  runtime.logger.warn(`plugin "${entry.plugin}": pre_tool_call returned an invalid result (${reason}); it is ignored as no opinion`);
}
