import type { ToolCall, ToolResult, Verdict } from "@toolgate/plugin-sdk";
import { snapshotBatch, snapshotCall } from "../call/snapshot-call.js";
import type { CallSnapshot } from "../call/snapshot.js";
import type { DecisionDraft } from "../decisions/decision-draft.js";
import { ToolgateError } from "../errors.js";
import type { Gate } from "../gate/decide.js";
import type { ToolCallExplanation } from "../gate/explain.js";
import { runObservers } from "../gate/run-observers.js";
import type { HostRuntime } from "../host-runtime.js";
import type { SessionOptions } from "../options.js";
import { startToolSpan } from "../tracing/tool-span.js";
import { callSession } from "./call-session.js";
import { callTools, type CallToolsOptions } from "./call-tools.js";
import { runCall } from "./run-call.js";

/** The session option every call method takes. */
export interface CallSessionOptions {
  /**
   * The session this call belongs to, for a host that serves many (an agent's session id): hooks, tools
   * and the record see it as `ctx.session`, so what plugins count per session is counted per agent.
   * Its fields override the host's `session`. @default the host's `session`
   */
  session?: SessionOptions;
}

export interface CallToolOptions extends CallSessionOptions {
  /**
   * Set by a caller that already gated this call with `checkToolCall` on this host: the remembered
   * verdict is used and `pre_tool_call` does not fire again. Ignored for a call the host has not gated,
   * or whose name, kind or arguments differ from the checked one.
   */
  skipPreToolCallHook?: boolean;
  /** The surface named in this call's decision record (an adapter names itself). @default the host's `surface` */
  surface?: string;
}

export interface CheckToolCallOptions extends CallSessionOptions {
  /**
   * Settle an `ask` through the host's `onAsk` before answering: the verdict is then `allow` or `block`,
   * and a following `callTool(call, { skipPreToolCallHook: true })` runs on that answer without asking
   * again. A host with no `onAsk` returns the `ask` as is, for the caller's own approval flow (an
   * adapter hands it to its framework's human-in-the-loop).
   * @default false (an `ask` is returned unresolved)
   */
  resolveAsk?: boolean;
  /** The surface named in this call's decision record (an adapter names itself). @default the host's `surface` */
  surface?: string;
}

/**
 * A tool call as callers hand it to the host. `id` may be left out where a framework gives none: the
 * host then generates `toolgate_<uuid>` (such a call cannot be matched by `skipPreToolCallHook` later).
 * An `id` that is present must be a non-empty string.
 */
export type ToolCallInput = Omit<ToolCall, "id"> & { readonly id?: string | undefined };

export interface ToolCaller {
  callTool(call: ToolCallInput, options?: CallToolOptions): Promise<ToolResult>;
  checkToolCall(call: ToolCallInput, options?: CheckToolCallOptions): Promise<Verdict>;
  callTools(calls: readonly ToolCallInput[], options?: CallToolsOptions): Promise<ToolResult[]>;
  explainToolCall(call: ToolCallInput, options?: CallSessionOptions): Promise<ToolCallExplanation>;
  postToolCall(call: ToolCall, result: ToolResult, options?: CallSessionOptions): Promise<void>;
}

/**
 * Told every verdict `checkToolCall` hands out, before the caller sees it: the call runs elsewhere, if at
 * all (the store's ledger releases what a blocked call reserved, and indexes what an allowed one did).
 */
export type CheckedListener = (callId: string, verdict: Verdict) => void;

/**
 * Every entry of the caller: refused once the host is closed, and whatever it throws (a malformed call,
 * a closed host) handed back as a rejection, never thrown at the caller.
 */
function guarded<Entry extends (...args: never[]) => Promise<unknown>>(runtime: HostRuntime, entry: Entry): Entry {
  const guard = (first: never, second: never, third: never) => {
    try {
      if (runtime.closed) throw new ToolgateError("HOST_CLOSED", "the host is closed; create a new one to run more tool calls");
      return entry(first, second, third);
    } catch (error) {
      return Promise.reject(error);
    }
  };
  return guard as unknown as Entry;
}

/** Runs the gate's verdicts: a blocked call ends here, an allowed one runs its tool. */
export function createToolCaller(runtime: HostRuntime, gate: Gate, onChecked?: CheckedListener): ToolCaller {
  const kindOf = (name: string) => runtime.registry.tool(name)?.definition.kind;
  const snapshot = (call: unknown, options: CallSessionOptions | undefined, freezeCall = true) =>
    snapshotCall(call, kindOf, callSession(runtime.session, options?.session), "tool call", freezeCall);
  return {
    callTools: guarded(runtime, (calls: readonly ToolCallInput[], options: CallToolsOptions = {}) => {
      const snapshots = snapshotBatch(calls, kindOf, callSession(runtime.session, options.session));
      return callTools(snapshots, options, (one) => runCall(runtime, gate, one, false, options.surface));
    }),
    callTool: guarded(runtime, (call: ToolCallInput, options?: CallToolOptions) =>
      runCall(runtime, gate, snapshot(call, options), options?.skipPreToolCallHook === true, options?.surface),
    ),
    checkToolCall: guarded(runtime, (call: ToolCallInput, options?: CheckToolCallOptions) =>
      // The gate freezes the call if a participant is to see it (`shownCall`); with none, nobody does.
      checkCall(runtime, gate, snapshot(call, options, false), options, onChecked),
    ),
    postToolCall: guarded(runtime, (call: ToolCall, result: ToolResult, options?: CallSessionOptions) => {
      const { call: copy, session } = snapshot(call, options);
      return runObservers(runtime, "post_tool_call", [copy, Object.freeze({ ...result, callId: copy.id, name: copy.name })], session);
    }),
    explainToolCall: guarded(runtime, (call: ToolCallInput, options?: CallSessionOptions) => gate.explain(snapshot(call, options))),
  };
}

/** `checkToolCall`: the verdict, its record (only a block's outcome is known here), and the `onChecked` listener told. */
function checkCall(
  runtime: HostRuntime,
  gate: Gate,
  snapshot: CallSnapshot,
  options: CheckToolCallOptions | undefined,
  onChecked: CheckedListener | undefined,
): Promise<Verdict> {
  const surface = options?.surface;
  const draft = runtime.recorder.begin(snapshot, typeof surface === "string" ? surface : undefined);
  const resolveAsk = options?.resolveAsk === true;
  const span = startToolSpan(snapshot.call, snapshot.session);
  const verdict = span === undefined ? gate.check(snapshot, resolveAsk, draft) : span.check(() => gate.check(snapshot, resolveAsk, draft));
  // A verdict decided synchronously is handed on without another turn of the microtask queue, and
  // without a closure made for it.
  if (!(verdict instanceof Promise)) return Promise.resolve(tell(runtime, snapshot, draft, onChecked, verdict));
  if (onChecked === undefined && draft === undefined) return verdict;
  return verdict.then((decided) => tell(runtime, snapshot, draft, onChecked, decided));
}

/** The verdict decided: the `onChecked` listener is told and the record, if any, goes out. */
function tell(
  runtime: HostRuntime,
  snapshot: CallSnapshot,
  draft: DecisionDraft | undefined,
  onChecked: CheckedListener | undefined,
  decided: Verdict,
): Verdict {
  onChecked?.(snapshot.call.id, decided);
  if (draft) {
    draft.settle(decided);
    // The caller runs an allowed call, if at all.
    runtime.recorder.finish(draft, decided.action === "block" ? "blocked" : undefined);
  }
  return decided;
}
