import type { SessionInfo, ToolCall, ToolResult, Verdict } from "@toolgate/plugin-sdk";
import { describeThrown, ToolgateError } from "../errors.js";
import type { EventBus } from "../events.js";
import type { DecisionMemo } from "../gate/decision-memo.js";
import type { Gate } from "../gate/decide.js";
import { callView, thawArgs } from "../gate/freeze-call.js";
import { isWellFormedCall } from "../gate/is-well-formed-call.js";
import { runObservers, type ObserverDependencies } from "../gate/run-observers.js";
import { isThenable } from "../gate/is-thenable.js";
import type { AskHandler } from "../options.js";
import type { PluginRegistry } from "../registry/registry.js";
import { callTools, type CallToolsOptions } from "./call-tools.js";
import { errorResult, okResult, resultOfBlock } from "./tool-results.js";
import { assertValidCall } from "./validate-call.js";

export interface CallToolOptions {
  /**
   * Set by a caller that already gated this call with `checkToolCall` on this host: the remembered
   * verdict is used and `pre_tool_call` does not fire again. Ignored for a call the host has not gated.
   */
  skipPreToolCallHook?: boolean;
}

export interface ToolCallerDependencies extends ObserverDependencies {
  gate: Gate;
  memo: DecisionMemo;
  registry: PluginRegistry;
  events: EventBus;
  session: SessionInfo;
  onAsk: AskHandler | undefined;
  closeSignal: AbortSignal;
}

export interface ToolCaller {
  callTool(call: ToolCall, options?: CallToolOptions): Promise<ToolResult>;
  checkToolCall(call: ToolCall): Promise<Verdict>;
  callTools(calls: readonly ToolCall[], options?: CallToolsOptions): Promise<ToolResult[]>;
}

export function createToolCaller(deps: ToolCallerDependencies): ToolCaller {
  function assertOpen(): void {
    if (deps.closeSignal.aborted) throw new ToolgateError("HOST_CLOSED", "the host is closed; create a new one to run more tool calls");
  }

  /**
   * For a tool this host runs, the kind it was registered with is what policies see: a call that says
   * nothing gets it, and a call cannot pass a shell off as a plain function.
   */
  function withRegisteredKind(call: ToolCall): ToolCall {
    const kind = deps.registry.tool(call.name)?.definition.kind;
    return kind === undefined || kind === call.kind ? call : { ...call, kind };
  }

  /** The schema runs only for a call the quick check cannot vouch for, so it alone words the errors. */
  function assertCall(call: ToolCall): void {
    if (!isWellFormedCall(call)) assertValidCall(call);
  }

  // From here to `execute`, plain functions hand promises along instead of `async` functions awaiting
  // each other: each async layer that returns a promise costs the call a promise and microtask turns,
  // and a synchronous verdict is not awaited at all. Every caller turns a throw into a rejection.
  function gateAndRun(call: ToolCall): Promise<ToolResult> {
    const verdict = deps.gate.decide(call);
    return isThenable(verdict) ? verdict.then((decided) => runDecided(call, decided)) : runDecided(call, verdict);
  }

  function runDecided(call: ToolCall, verdict: Verdict): Promise<ToolResult> {
    if (verdict.action === "ask") return resolveAsk(call, verdict).then((resolved) => runResolved(call, resolved));
    return runResolved(call, verdict);
  }

  function runResolved(call: ToolCall, verdict: Verdict): Promise<ToolResult> {
    return verdict.action === "block" ? Promise.resolve(finishBlocked(call, verdict)) : execute(call, verdict);
  }

  async function resolveAsk(call: ToolCall, verdict: Verdict): Promise<Verdict> {
    const message = verdict.message ?? "approval needed";
    if (!deps.onAsk) return { ...verdict, action: "block", message: `${message} (needs approval, and this host has no onAsk approver)` };
    try {
      const approved = await deps.onAsk(callView(call, verdict.args), message);
      return approved === true ? { ...verdict, action: "allow" } : { ...verdict, action: "block", message: `${message} (not approved)` };
    } catch (error) {
      return { ...verdict, action: "block", message: `${message} (the approver failed: ${describeThrown(error)})` };
    }
  }

  function finishBlocked(call: ToolCall, verdict: Verdict): ToolResult {
    const result = resultOfBlock(call, verdict);
    const payload = verdict.plugin === undefined ? { call, verdict, result } : { call, verdict, plugin: verdict.plugin, result };
    deps.events.emit("tool:blocked", payload);
    deps.events.emit("tool:end", { call, status: result.status, result, verdict });
    return result;
  }

  async function execute(call: ToolCall, verdict: Verdict): Promise<ToolResult> {
    const finalCall = callView(call, verdict.args);
    const tool = deps.registry.tool(call.name);
    let result: ToolResult;
    if (!tool) {
      result = errorResult(call, `Unknown tool "${call.name}". Available tools: ${deps.registry.toolNames.join(", ") || "none"}.`);
    } else {
      deps.events.emit("tool:before", { call: finalCall, verdict });
      try {
        const output = tool.definition.execute(thawArgs(verdict.args), { call: finalCall, session: deps.session, signal: deps.closeSignal });
        result = okResult(call, isThenable(output) ? await output : output);
      } catch (error) {
        result = errorResult(call, `Tool "${call.name}" failed: ${describeThrown(error)}`);
      }
    }
    // Without post_tool_call hooks there is nothing to wait for, and no reason to spend a turn on it.
    if (deps.registry.hooks("post_tool_call").length > 0) await runObservers(deps, "post_tool_call", [finalCall, result]);
    if (tool) deps.events.emit("tool:after", { call: finalCall, verdict, result });
    deps.events.emit("tool:end", { call: finalCall, status: result.status, result, verdict });
    return result;
  }

  return {
    async callTools(calls, options = {}) {
      assertOpen();
      return callTools(calls, options, (call) => gateAndRun(withRegisteredKind(call)));
    },
    // callTool and checkToolCall are not `async` (see gateAndRun); failures still reject, never throw.
    callTool(call, options = {}) {
      try {
        assertOpen();
        assertCall(call);
        const known = withRegisteredKind(call);
        const remembered = options.skipPreToolCallHook === true ? deps.memo.take(known) : undefined;
        return remembered ? runDecided(known, remembered) : gateAndRun(known);
      } catch (error) {
        return Promise.reject(error);
      }
    },
    checkToolCall(call) {
      try {
        assertOpen();
        assertCall(call);
        return Promise.resolve(deps.gate.decide(withRegisteredKind(call), deps.memo));
      } catch (error) {
        return Promise.reject(error);
      }
    },
  };
}
