import type { PreToolCallDecision, ToolArgs, Verdict } from "@toolgate/plugin-sdk";
import { PreToolCallDecisionSchema } from "@toolgate/plugin-sdk/host";
import * as v from "valibot";
import type { DecisionDraft } from "../decisions/decision-draft.js";
import { describeThrown } from "../errors.js";
import type { HostRuntime } from "../host-runtime.js";
import type { AskHandler } from "../options.js";
import { type PermissionRules, rulesParticipant } from "../policies/permission-rules.js";
import type { PolicyProtection } from "../protection/policy-protection.js";
import { protectionParticipant, protectionSource } from "../protection/protection-source.js";
import type { HookEntry } from "../registry/registry.js";
import { validationMessage } from "../schema-messages/summarize-issues.js";
import { addDecision, toVerdict } from "./aggregate.js";
import { DecisionMemo, type MemoLimits } from "./decision-memo.js";
import { withExplainDetails, type PluginExplanation, type ToolCallExplanation } from "./explain.js";
import { callView } from "../call/freeze-call.js";
import { HookInvocationContext } from "../invocation/hook-context.js";
import { pluginFailureVerdict } from "./plugin-failure.js";
import type { CallSnapshot } from "../call/snapshot.js";
import { PolicyRun } from "./policy-run.js";
import { AskResolver } from "./resolve-ask.js";
import { failure, HookFailure, PendingHook, runCallHook } from "../invocation/run-hook.js";

/** The one choke point: every execution path asks the gate, and nothing else runs `pre_tool_call`. */
export interface Gate {
  /**
   * `checkToolCall`: the plugins' verdict, remembered for one `skipPreToolCallHook` call. An `ask` stays
   * an `ask` unless `resolveAsk` is set and the host has an `onAsk`: then its answer is returned and remembered.
   */
  check(snapshot: CallSnapshot, resolveAsk?: boolean, draft?: DecisionDraft): Verdict | Promise<Verdict>;
  /**
   * The verdict a call runs on, `allow` or `block`: the remembered one (with `skipPreToolCallHook`) or
   * one decided now, an `ask` resolved through `onAsk`, and `block` once the host is closed.
   */
  admit(snapshot: CallSnapshot, skipPreToolCallHook: boolean, draft?: DecisionDraft): Verdict | Promise<Verdict>;
  /** The verdict and every plugin's part in it, by the same loop; no event, no memo. */
  explain(snapshot: CallSnapshot): Promise<ToolCallExplanation>;
  /**
   * Settles every open question to `onAsk` as blocked and forgets every remembered verdict. Decisions
   * still running end blocked as their pending hooks are aborted (`HookDeadlines.abortAll`).
   */
  close(): void;
}

export interface GateOptions {
  onAsk: AskHandler | undefined;
  memo?: Partial<MemoLimits>;
}

const closedMessage = "host closed (host.close()) before this call could run";

/** What a participant said, as its record and the explain trace show it: a block's or ask's message, an allow's reason. */
function messageOf(decision: PreToolCallDecision): string | undefined {
  return decision.action === "modify" ? undefined : decision.action === "allow" ? decision.reason : decision.message;
}

/** The verdict of every call the host has not run when it closes. */
export function closedVerdict(args: ToolArgs): Verdict {
  return { action: "block", message: closedMessage, args };
}

export function createGate(runtime: HostRuntime, options: GateOptions): Gate {
  const memo = new DecisionMemo(options.memo);
  const asks = new AskResolver(options.onAsk);
  const warnedInvalid = new Set<string>();

  /**
   * The policy loop, the only one: runs hooks from `run.next` on, in plugin order, and stops at the first
   * pending async hook (returned) or after the last one. `resume` re-enters it at the next index.
   */
  function advance(run: PolicyRun): PendingHook | undefined {
    const { hooks } = run;
    // Each hook's time is measured from here or from the previous hook's return (`runCallHook`).
    if (run.next < hooks.length) run.startedAt = performance.now();
    while (run.next < hooks.length) {
      const entry = hooks[run.next++]!;
      const began = run.startedAt;
      const outcome = invoke(entry, run);
      // No opinion, the most common answer, needs no reading at all.
      if (outcome === undefined && run.trace === undefined) {
        run.draft?.add(entry.source, "none", undefined, run.startedAt - began);
        continue;
      }
      if (PendingHook.is(outcome)) {
        run.awaiting = entry;
        run.awaitingSince = began;
        return outcome;
      }
      absorb(outcome, entry, run, run.startedAt - began);
    }
    return undefined;
  }

  function decide(run: PolicyRun): Verdict | Promise<Verdict> {
    const pending = advance(run);
    if (pending === undefined) return conclude(run);
    return new Promise<Verdict>((resolve) => {
      run.resolve = resolve;
      run.resume = (outcome) => resume(run, outcome);
      pending.whenSettled(run.resume);
    });
  }

  function resume(run: PolicyRun, outcome: unknown): void {
    absorb(outcome, run.awaiting!, run, run.draft ? performance.now() - run.awaitingSince : 0);
    // After close no more plugin code runs for this call: it ends blocked.
    const pending = runtime.closed ? undefined : advance(run);
    if (pending !== undefined) pending.whenSettled(run.resume!);
    else run.resolve!(conclude(run));
  }

  function invoke(entry: HookEntry, run: PolicyRun): unknown {
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

  function conclude(run: PolicyRun): Verdict {
    // Rules decide on what actually runs: a `modify` cannot smuggle in an argument a rule denies.
    if (runtime.rules && run.aggregate.args !== run.call.args) checkRules(runtime.rules, run, run.aggregate.args);
    // Last, on the arguments that run: a block here stands whatever the others said, and a block of theirs keeps its message.
    if (runtime.protection) checkProtection(runtime.protection, run, run.aggregate.args);
    const verdict = runtime.closed ? closedVerdict(run.aggregate.args) : toVerdict(run.aggregate);
    if (run.remember && !runtime.closed) memo.remember(run.call, verdict, run.aggregate.bytes);
    return verdict;
  }

  /** Folds one outcome in (the hook took `ms`); never throws, since it runs inside a hook's settlement. */
  function absorb(outcome: unknown, entry: HookEntry, run: PolicyRun, ms: number): void {
    try {
      absorbOutcome(outcome, entry, run, ms);
    } catch (error) {
      absorbFailure(failure(entry, `returned a value that cannot be read: ${describeThrown(error)}`, "HOOK_FAILED", error), entry, run, ms);
    }
  }

  function absorbOutcome(outcome: unknown, entry: HookEntry, run: PolicyRun, ms: number): void {
    if (outcome === undefined) {
      run.trace?.push({ plugin: entry.plugin, outcome: "none" });
      run.draft?.add(entry.source, "none", undefined, ms);
      return;
    }
    if (HookFailure.is(outcome)) {
      absorbFailure(outcome, entry, run, ms);
      return;
    }
    const parsed = v.safeParse(PreToolCallDecisionSchema, outcome);
    if (!parsed.success) {
      reportInvalid(outcome, validationMessage(parsed.issues), entry, run, ms);
      return;
    }
    addDecision(run.aggregate, parsed.output, entry.plugin, entry.source);
    if (run.trace) run.trace.push(explainDecision(parsed.output, entry.plugin, run));
    run.draft?.add(entry.source, parsed.output.action, messageOf(parsed.output), ms);
  }

  function explainDecision(decision: PreToolCallDecision, plugin: string, run: PolicyRun): PluginExplanation {
    if (decision.action === "modify") return { plugin, outcome: "modify", args: run.aggregate.args };
    const message = messageOf(decision);
    return message === undefined ? { plugin, outcome: decision.action } : { plugin, outcome: decision.action, message };
  }

  function absorbFailure(outcome: HookFailure, entry: HookEntry, run: PolicyRun, ms: number): void {
    const { error } = outcome;
    run.draft?.add(entry.source, outcome.timedOut ? "timeout" : "error", error.message, ms);
    if (run.trace) run.trace.push({ plugin: entry.plugin, outcome: "error", message: error.message });
    else {
      const about = { plugin: entry.plugin, hook: entry.hook, call: run.view };
      if (outcome.timedOut) runtime.events.emit("hook:timeout", { ...about, timeoutMs: (entry.deadlines ?? runtime.deadlines).timeoutMs });
      runtime.events.emit("hook:error", { ...about, error });
    }
    if (runtime.onHookError === "block")
      addDecision(run.aggregate, { action: "block", message: `${error.message} (failing closed)` }, entry.plugin, entry.source);
    // After close() the call ends blocked whatever the setting: saying it goes on would be wrong.
    else if (!run.trace && !runtime.closed) runtime.logger.warn(`${error.message}; onHookError is "allow", so the call goes on`);
  }

  function reportInvalid(value: unknown, reason: string, entry: HookEntry, run: PolicyRun, ms: number): void {
    run.draft?.add(entry.source, "none", `invalid result, ignored as no opinion: ${reason}`, ms);
    if (run.trace) {
      run.trace.push({ plugin: entry.plugin, outcome: "invalid", message: reason });
      return;
    }
    runtime.events.emit("hook:invalid", { plugin: entry.plugin, hook: entry.hook, call: run.view, value, reason });
    if (warnedInvalid.has(entry.plugin)) return;
    warnedInvalid.add(entry.plugin);
    runtime.logger.warn(`plugin "${entry.plugin}": pre_tool_call returned an invalid result (${reason}); it is ignored as no opinion`);
  }

  function finish(snapshot: CallSnapshot, verdict: Verdict): Verdict | Promise<Verdict> {
    if (runtime.closed) return closedVerdict(verdict.args);
    return verdict.action === "ask" ? asks.resolve(snapshot.call, verdict) : verdict;
  }

  /** Permission rules run before every plugin, and again on the final arguments (`conclude`). */
  function checkRules(rules: PermissionRules, run: PolicyRun, args: ToolArgs): void {
    const began = run.draft ? performance.now() : 0;
    const matched = rules.check(run.call.name, args, run.call.kind);
    if (matched === undefined) return;
    addDecision(run.aggregate, matched.decision, rulesParticipant, matched.source);
    if (run.trace) run.trace.push(explainDecision(matched.decision, rulesParticipant, run));
    run.draft?.add(matched.source, matched.decision.action, messageOf(matched.decision), performance.now() - began);
  }

  /** The built-in protection of toolgate's own policy, on the final arguments (after every `modify`). */
  function checkProtection(protection: PolicyProtection, run: PolicyRun, args: ToolArgs): void {
    const began = run.draft ? performance.now() : 0;
    const decision = protection.check({ name: run.call.name, args, kind: run.call.kind });
    if (decision === undefined) return;
    addDecision(run.aggregate, decision, protectionParticipant, protectionSource);
    if (run.trace) run.trace.push(explainDecision(decision, protectionParticipant, run));
    run.draft?.add(protectionSource, decision.action, messageOf(decision), performance.now() - began);
  }

  function start(run: PolicyRun): Verdict | Promise<Verdict> {
    if (runtime.rules) checkRules(runtime.rules, run, run.call.args);
    return decide(run);
  }

  /**
   * The plugins' verdict on a call. While a plugin has failed to load (`onPluginError: "block"`) every
   * call is blocked with the cause. With no `pre_tool_call` and no rules the call is allowed as it came,
   * and nothing is remembered: a later `skipPreToolCallHook` call would be decided the same way again.
   */
  function verdictOn(snapshot: CallSnapshot, remember: boolean, draft: DecisionDraft | undefined): Verdict | Promise<Verdict> {
    if (draft) draft.decided = true;
    if (runtime.pluginFailure) return pluginFailureVerdict(runtime.pluginFailure, snapshot.call.args);
    const hooks = runtime.registry.hooks("pre_tool_call");
    if (hooks.length > 0 || runtime.rules || runtime.protection)
      return start(new PolicyRun(snapshot.call, snapshot.bytes, snapshot.session, hooks, remember, undefined, draft));
    return { action: "allow", args: snapshot.call.args };
  }

  /** An `ask` answered through `onAsk`; the answer replaces the remembered ask, so the approver is asked once. */
  function answerAsk(snapshot: CallSnapshot, verdict: Verdict): Verdict | Promise<Verdict> {
    if (verdict.action !== "ask") return verdict;
    const rememberAnswer = (answer: Verdict): Verdict => {
      if (memo.take(snapshot.call) !== undefined && !runtime.closed) memo.remember(snapshot.call, answer, snapshot.bytes);
      return answer;
    };
    const answer = finish(snapshot, verdict);
    return answer instanceof Promise ? answer.then(rememberAnswer) : rememberAnswer(answer);
  }

  return {
    check(snapshot, resolveAsk = false, draft) {
      if (runtime.closed) return closedVerdict(snapshot.call.args);
      const verdict = verdictOn(snapshot, true, draft);
      if (!resolveAsk || asks.onAsk === undefined) return verdict;
      return verdict instanceof Promise ? verdict.then((decided) => answerAsk(snapshot, decided)) : answerAsk(snapshot, verdict);
    },
    admit(snapshot, skipPreToolCallHook, draft) {
      if (runtime.closed) return closedVerdict(snapshot.call.args);
      const verdict = (skipPreToolCallHook ? memo.take(snapshot.call) : undefined) ?? verdictOn(snapshot, false, draft);
      return verdict instanceof Promise ? verdict.then((decided) => finish(snapshot, decided)) : finish(snapshot, verdict);
    },
    async explain(snapshot) {
      const plugins: PluginExplanation[] = [];
      const decided = await start(new PolicyRun(snapshot.call, snapshot.bytes, snapshot.session, runtime.registry.hooks("pre_tool_call"), false, plugins));
      // What the loaded plugins say is still shown; the verdict is the one every surface gives.
      const verdict = runtime.pluginFailure ? pluginFailureVerdict(runtime.pluginFailure, snapshot.call.args) : decided;
      return { call: snapshot.call, verdict, plugins: await withExplainDetails(runtime, snapshot, plugins) };
    },
    close() {
      memo.clear();
      asks.close((asked) => closedVerdict(asked.args));
    },
  };
}
