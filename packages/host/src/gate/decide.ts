import type { Verdict } from "@toolgate/plugin-sdk";
import { type CallSnapshot, shownCall } from "../call/snapshot.js";
import type { HostRuntime } from "../host-runtime.js";
import type { AskHandler } from "../options.js";
import { DecisionMemo, type MemoLimits } from "./decision-memo.js";
import { withExplainDetails, type ToolCallExplanation } from "./explain.js";
import { ExplainTrace } from "./explain-trace.js";
import { checkRules, closedVerdict } from "./participants.js";
import { pluginFailureVerdict } from "./plugin-failure.js";
import { PolicyRun, type RunListener } from "./policy-run.js";
import { AskResolver } from "./resolve-ask.js";
import { runSequence } from "./run-sequence.js";
import { passShadowOn } from "./shadow.js";

export { closedVerdict } from "./participants.js";

/** The one choke point: every execution path asks the gate, and nothing else runs `pre_tool_call`. */
export interface Gate {
  /**
   * `checkToolCall`: the plugins' verdict, remembered for one `skipPreToolCallHook` call. An `ask` stays
   * an `ask` unless `resolveAsk` is set and the host has an `onAsk`: then its answer is returned and remembered.
   * `listener` (the call's record) hears every participant.
   */
  check(snapshot: CallSnapshot, resolveAsk?: boolean, listener?: RunListener): Verdict | Promise<Verdict>;
  /**
   * The verdict a call runs on, `allow` or `block`: the remembered one (with `skipPreToolCallHook`) or
   * one decided now, an `ask` resolved through `onAsk`, and `block` once the host is closed.
   */
  admit(snapshot: CallSnapshot, skipPreToolCallHook: boolean, listener?: RunListener): Verdict | Promise<Verdict>;
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

/** Rules first, then every plugin's `pre_tool_call` in order (`runSequence`), then the last checks. */
function start(run: PolicyRun): Verdict | Promise<Verdict> {
  checkRules(run, run.call.args);
  return runSequence(run);
}

/** What the gate keeps between calls: the remembered verdicts and the open questions to `onAsk`. */
interface GateState {
  readonly runtime: HostRuntime;
  readonly memo: DecisionMemo;
  readonly asks: AskResolver;
  readonly remember: (run: PolicyRun, verdict: Verdict) => void;
}

/**
 * The plugins' verdict on a call. While a plugin has failed to load (`onPluginError: "block"`) every
 * call is blocked with the cause. With no `pre_tool_call` and no rules the call is allowed as it came,
 * and nothing is remembered: a later `skipPreToolCallHook` call would be decided the same way again.
 */
function verdictOn(gate: GateState, snapshot: CallSnapshot, keep: boolean, listener: RunListener | undefined): Verdict | Promise<Verdict> {
  const { runtime } = gate;
  listener?.deciding();
  if (runtime.pluginFailure) return pluginFailureVerdict(runtime.pluginFailure, snapshot.call.args);
  const hooks = runtime.registry.hooks("pre_tool_call");
  if (hooks.length === 0 && !runtime.rules && !runtime.shadowRules && !runtime.protection) return { action: "allow", args: snapshot.call.args };
  return start(new PolicyRun(runtime, shownCall(snapshot), snapshot.bytes, snapshot.session, hooks, keep ? gate.remember : undefined, listener));
}

/** The verdict a call runs on: `block` once the host is closed, an `ask` resolved through `onAsk`. */
function finish(gate: GateState, snapshot: CallSnapshot, verdict: Verdict): Verdict | Promise<Verdict> {
  if (gate.runtime.closed) return closedVerdict(verdict.args);
  if (verdict.action !== "ask") return verdict;
  const answer = gate.asks.resolve(shownCall(snapshot), verdict);
  return answer instanceof Promise ? answer.then((settled) => passShadowOn(verdict, settled)) : passShadowOn(verdict, answer);
}

/** An `ask` answered through `onAsk`; the answer replaces the remembered ask, so the approver is asked once. */
function answerAsk(gate: GateState, snapshot: CallSnapshot, verdict: Verdict): Verdict | Promise<Verdict> {
  if (verdict.action !== "ask") return verdict;
  const rememberAnswer = (answer: Verdict): Verdict => {
    if (gate.memo.take(snapshot.call) !== undefined && !gate.runtime.closed) gate.memo.remember(snapshot.call, answer, snapshot.bytes);
    return answer;
  };
  const answer = finish(gate, snapshot, verdict);
  return answer instanceof Promise ? answer.then(rememberAnswer) : rememberAnswer(answer);
}

/** A quiet run whose listener is explain's trace: the verdict and what each plugin said. */
async function explain(runtime: HostRuntime, snapshot: CallSnapshot): Promise<ToolCallExplanation> {
  const trace = new ExplainTrace();
  const hooks = runtime.registry.hooks("pre_tool_call");
  const decided = await start(new PolicyRun(runtime, shownCall(snapshot), snapshot.bytes, snapshot.session, hooks, undefined, trace));
  // What the loaded plugins say is still shown; the verdict is the one every surface gives.
  const verdict = runtime.pluginFailure ? pluginFailureVerdict(runtime.pluginFailure, snapshot.call.args) : decided;
  return { call: shownCall(snapshot), verdict, plugins: await withExplainDetails(runtime, snapshot, trace.plugins) };
}

export function createGate(runtime: HostRuntime, options: GateOptions): Gate {
  const memo = new DecisionMemo(options.memo);
  const asks = new AskResolver(options.onAsk);
  const gate: GateState = { runtime, memo, asks, remember: (run, verdict) => memo.remember(run.call, verdict, run.aggregate.bytes) };
  return {
    check(snapshot, resolveAsk = false, listener) {
      if (runtime.closed) return closedVerdict(snapshot.call.args);
      const verdict = verdictOn(gate, snapshot, true, listener);
      if (!resolveAsk || asks.onAsk === undefined) return verdict;
      return verdict instanceof Promise ? verdict.then((decided) => answerAsk(gate, snapshot, decided)) : answerAsk(gate, snapshot, verdict);
    },
    admit(snapshot, skipPreToolCallHook, listener) {
      if (runtime.closed) return closedVerdict(snapshot.call.args);
      const verdict = (skipPreToolCallHook ? memo.take(snapshot.call) : undefined) ?? verdictOn(gate, snapshot, false, listener);
      return verdict instanceof Promise ? verdict.then((decided) => finish(gate, snapshot, decided)) : finish(gate, snapshot, verdict);
    },
    explain: (snapshot) => explain(runtime, snapshot),
    close() {
      memo.clear();
      asks.close((asked) => closedVerdict(asked.args));
    },
  };
}
