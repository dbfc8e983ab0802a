import type { HostEvents, SessionInfo, ToolCall, ToolDefinition, ToolResult, Verdict } from "@toolgate/plugin-sdk";
import type { SessionOptions } from "../options.js";
import { callSession } from "./call-session.js";
import type { DecisionDraft } from "../decisions/decision-draft.js";
import { describeThrown, ToolgateError } from "../errors.js";
import { closedVerdict, type Gate } from "../gate/decide.js";
import type { ToolCallExplanation } from "../gate/explain.js";
import { callView, thawArgs } from "../call/freeze-call.js";
import type { CallSnapshot } from "../call/snapshot.js";
import { runObservers } from "../gate/run-observers.js";
import { isNativePromise, thenOf } from "../call/thenable.js";
import type { HostRuntime } from "../host-runtime.js";
import { callTools, type CallToolsOptions } from "./call-tools.js";
import { errorResult, okResult, resultOfBlock } from "./tool-results.js";
import { snapshotBatch, snapshotCall } from "../call/snapshot-call.js";
import { startToolSpan } from "../tracing/tool-span.js";

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

/** Runs the gate's verdicts: a blocked call ends here, an allowed one runs its tool. */
export function createToolCaller(runtime: HostRuntime, gate: Gate, onChecked?: CheckedListener): ToolCaller {
  const kindOf = (name: string) => runtime.registry.tool(name)?.definition.kind;

  function assertOpen(): void {
    if (runtime.closed) throw new ToolgateError("HOST_CLOSED", "the host is closed; create a new one to run more tool calls");
  }

  // From the entry to `execute`, plain functions hand promises along instead of `async` functions
  // awaiting each other: each async layer costs the call a promise and microtask turns, and a
  // synchronous verdict is not awaited at all. Every entry turns a throw into a rejection.
  function run(snapshot: CallSnapshot, skipPreToolCallHook: boolean, surface: unknown): Promise<ToolResult> {
    const draft = runtime.recorder.begin(snapshot, typeof surface === "string" ? surface : undefined);
    const span = startToolSpan(snapshot.call, snapshot.session);
    if (span !== undefined)
      return span.run(
        () => gate.admit(snapshot, skipPreToolCallHook, draft),
        (admitted) => runVerdict(snapshot, admitted, draft),
      );
    const verdict = gate.admit(snapshot, skipPreToolCallHook, draft);
    return verdict instanceof Promise ? verdict.then((admitted) => runVerdict(snapshot, admitted, draft)) : runVerdict(snapshot, verdict, draft);
  }

  function runVerdict({ call, session }: CallSnapshot, verdict: Verdict, draft: DecisionDraft | undefined): Promise<ToolResult> {
    // The last check before a tool starts: nothing starts once close() has begun.
    if (runtime.closed) verdict = closedVerdict(verdict.args);
    draft?.settle(verdict);
    if (verdict.action !== "allow") return Promise.resolve(finishBlocked(call, verdict, draft));
    const outcome = execute(call, session, verdict, draft);
    return outcome instanceof Promise ? outcome : Promise.resolve(outcome);
  }

  function finishBlocked(call: ToolCall, verdict: Verdict, draft: DecisionDraft | undefined): ToolResult {
    const result = resultOfBlock(call, verdict);
    if (draft) runtime.recorder.finish(draft, "blocked");
    runtime.denials.record(call, verdict);
    const { events } = runtime;
    if (events.listens("tool:blocked")) {
      const payload: HostEvents["tool:blocked"] = { call, verdict, result };
      if (verdict.plugin !== undefined) payload.plugin = verdict.plugin;
      if (verdict.source !== undefined) payload.source = verdict.source;
      events.emit("tool:blocked", payload);
    }
    if (events.listens("tool:end")) events.emit("tool:end", { call, status: result.status, result, verdict });
    return result;
  }

  /** Synchronous as long as the tool and the observers are: a promise is made only where one is awaited. */
  function execute(call: ToolCall, session: SessionInfo, verdict: Verdict, draft: DecisionDraft | undefined): ToolResult | Promise<ToolResult> {
    const finalCall = verdict.args === call.args ? call : callView(call, verdict.args);
    const tool = runtime.registry.tool(call.name);
    if (!tool)
      return observe(
        finalCall,
        session,
        verdict,
        false,
        errorResult(call, `Unknown tool "${call.name}". Available tools: ${runtime.registry.toolNames.join(", ") || "none"}.`),
        draft,
      );
    if (runtime.events.listens("tool:before")) runtime.events.emit("tool:before", { call: finalCall, verdict });
    return runTool(tool.definition, finalCall, session, (result) => observe(finalCall, session, verdict, true, result, draft));
  }

  function observe(
    call: ToolCall,
    session: SessionInfo,
    verdict: Verdict,
    ran: boolean,
    result: ToolResult,
    draft: DecisionDraft | undefined,
  ): ToolResult | Promise<ToolResult> {
    // Without post_tool_call hooks there is nothing to wait for, and no reason to spend a turn on it.
    if (runtime.registry.hooks("post_tool_call").length === 0) return end(call, verdict, ran, result, draft);
    return runObservers(runtime, "post_tool_call", [call, result], session).then(() => end(call, verdict, ran, result, draft));
  }

  function end(call: ToolCall, verdict: Verdict, ran: boolean, result: ToolResult, draft: DecisionDraft | undefined): ToolResult {
    if (draft) runtime.recorder.finish(draft, result.status);
    const { events } = runtime;
    if (ran && events.listens("tool:after")) events.emit("tool:after", { call, verdict, result });
    if (events.listens("tool:end")) events.emit("tool:end", { call, status: result.status, result, verdict });
    return result;
  }

  /**
   * Runs the tool and hands its result to `finish` exactly once: directly for a synchronous tool, as the
   * reaction to an async tool's promise otherwise (one promise between the tool and the caller).
   */
  function runTool(
    tool: ToolDefinition,
    call: ToolCall,
    session: SessionInfo,
    finish: (result: ToolResult) => ToolResult | Promise<ToolResult>,
  ): ToolResult | Promise<ToolResult> {
    const succeeded = (output: unknown) => finish(okResult(call, output));
    const failed = (error: unknown) => finish(errorResult(call, `Tool "${call.name}" failed: ${describeThrown(error)}`));
    let output: unknown;
    let then: ReturnType<typeof thenOf>;
    let native = false;
    try {
      output = tool.execute(thawArgs(call.args), { call, session, signal: runtime.closeSignal });
      then = thenOf(output);
      native = then !== undefined && isNativePromise(output as object, then);
    } catch (error) {
      return failed(error);
    }
    if (then === undefined) return succeeded(output);
    // An ordinary promise is adopted by its own `then`; anything else through a fresh promise, so a
    // hostile thenable (calling back twice, or never, or returning junk) cannot reach the caller.
    if (!native) return new Promise((resolve, reject) => then.call(output, resolve, reject)).then(succeeded, failed);
    try {
      return then.call(output, succeeded, failed) as Promise<ToolResult>;
    } catch (error) {
      // Thrown before any reaction was registered (a Proxy passing for a promise): `finish` has not run.
      return failed(error);
    }
  }

  return {
    callTools(calls, options = {}) {
      try {
        assertOpen();
        const snapshots = snapshotBatch(calls, kindOf, callSession(runtime.session, options.session));
        return callTools(snapshots, options, (snapshot) => run(snapshot, false, options.surface));
      } catch (error) {
        return Promise.reject(error);
      }
    },
    callTool(call, options) {
      try {
        assertOpen();
        return run(snapshotCall(call, kindOf, callSession(runtime.session, options?.session)), options?.skipPreToolCallHook === true, options?.surface);
      } catch (error) {
        return Promise.reject(error);
      }
    },
    checkToolCall(call, options) {
      try {
        assertOpen();
        const snapshot = snapshotCall(call, kindOf, callSession(runtime.session, options?.session));
        const surface = options?.surface;
        const draft = runtime.recorder.begin(snapshot, typeof surface === "string" ? surface : undefined);
        const resolveAsk = options?.resolveAsk === true;
        const span = startToolSpan(snapshot.call, snapshot.session);
        const verdict = span === undefined ? gate.check(snapshot, resolveAsk, draft) : span.check(() => gate.check(snapshot, resolveAsk, draft));
        if (onChecked === undefined && draft === undefined) return Promise.resolve(verdict);
        const tell = (decided: Verdict) => {
          onChecked?.(snapshot.call.id, decided);
          if (draft) {
            draft.settle(decided);
            // The caller runs an allowed call, if at all: only a block's outcome is known here.
            runtime.recorder.finish(draft, decided.action === "block" ? "blocked" : undefined);
          }
          return decided;
        };
        // A verdict decided synchronously is handed on without another turn of the microtask queue.
        return verdict instanceof Promise ? verdict.then(tell) : Promise.resolve(tell(verdict));
      } catch (error) {
        return Promise.reject(error);
      }
    },
    postToolCall(call, result, options) {
      try {
        assertOpen();
        const { call: snapshot, session } = snapshotCall(call, kindOf, callSession(runtime.session, options?.session));
        return runObservers(runtime, "post_tool_call", [snapshot, Object.freeze({ ...result, callId: snapshot.id, name: snapshot.name })], session);
      } catch (error) {
        return Promise.reject(error);
      }
    },
    explainToolCall(call, options) {
      try {
        assertOpen();
        return gate.explain(snapshotCall(call, kindOf, callSession(runtime.session, options?.session)));
      } catch (error) {
        return Promise.reject(error);
      }
    },
  };
}
