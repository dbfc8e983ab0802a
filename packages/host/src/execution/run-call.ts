import type { HostEvents, SessionInfo, ToolCall, ToolResult, Verdict } from "@toolgate/plugin-sdk";
import { callView } from "../call/freeze-call.js";
import type { CallSnapshot } from "../call/snapshot.js";
import type { DecisionDraft } from "../decisions/decision-draft.js";
import { closedVerdict, type Gate } from "../gate/decide.js";
import { runObservers } from "../gate/run-observers.js";
import type { HostRuntime } from "../host-runtime.js";
import { startToolSpan } from "../tracing/tool-span.js";
import { runTool } from "./run-tool.js";
import { errorResult, resultOfBlock } from "./tool-results.js";

// From the entry to `execute`, plain functions hand promises along instead of `async` functions
// awaiting each other: each async layer costs the call a promise and microtask turns, and a
// synchronous verdict is not awaited at all.

/** `callTool`: the gate admits the call (its record listening), then the tool runs or the block ends it. */
export function runCall(runtime: HostRuntime, gate: Gate, snapshot: CallSnapshot, skipPreToolCallHook: boolean, surface: unknown): Promise<ToolResult> {
  const draft = runtime.recorder.begin(snapshot, typeof surface === "string" ? surface : undefined);
  const proceed = (admitted: Verdict) => runVerdict(runtime, snapshot, admitted, draft);
  const span = startToolSpan(snapshot.call, snapshot.session);
  if (span !== undefined) return span.run(() => gate.admit(snapshot, skipPreToolCallHook, draft), proceed);
  const verdict = gate.admit(snapshot, skipPreToolCallHook, draft);
  return verdict instanceof Promise ? verdict.then(proceed) : proceed(verdict);
}

function runVerdict(runtime: HostRuntime, { call, session }: CallSnapshot, verdict: Verdict, draft: DecisionDraft | undefined): Promise<ToolResult> {
  // The last check before a tool starts: nothing starts once close() has begun.
  if (runtime.closed) verdict = closedVerdict(verdict.args);
  draft?.settle(verdict);
  if (verdict.action !== "allow") return Promise.resolve(finishBlocked(runtime, call, verdict, draft));
  const outcome = execute(runtime, call, session, verdict, draft);
  return outcome instanceof Promise ? outcome : Promise.resolve(outcome);
}

function finishBlocked(runtime: HostRuntime, call: ToolCall, verdict: Verdict, draft: DecisionDraft | undefined): ToolResult {
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
function execute(
  runtime: HostRuntime,
  call: ToolCall,
  session: SessionInfo,
  verdict: Verdict,
  draft: DecisionDraft | undefined,
): ToolResult | Promise<ToolResult> {
  const finalCall = verdict.args === call.args ? call : callView(call, verdict.args);
  const observe = (ran: boolean, result: ToolResult) => observeResult(runtime, finalCall, session, verdict, ran, result, draft);
  const tool = runtime.registry.tool(call.name);
  if (!tool) return observe(false, errorResult(call, `Unknown tool "${call.name}". Available tools: ${runtime.registry.toolNames.join(", ") || "none"}.`));
  if (runtime.events.listens("tool:before")) runtime.events.emit("tool:before", { call: finalCall, verdict });
  return runTool(tool.definition, finalCall, session, runtime.closeSignal, (result) => observe(true, result));
}

function observeResult(
  runtime: HostRuntime,
  call: ToolCall,
  session: SessionInfo,
  verdict: Verdict,
  ran: boolean,
  result: ToolResult,
  draft: DecisionDraft | undefined,
): ToolResult | Promise<ToolResult> {
  // Without post_tool_call hooks there is nothing to wait for, and no reason to spend a turn on it.
  if (runtime.registry.hooks("post_tool_call").length === 0) return end(runtime, call, verdict, ran, result, draft);
  return runObservers(runtime, "post_tool_call", [call, result], session).then(() => end(runtime, call, verdict, ran, result, draft));
}

function end(runtime: HostRuntime, call: ToolCall, verdict: Verdict, ran: boolean, result: ToolResult, draft: DecisionDraft | undefined): ToolResult {
  if (draft) runtime.recorder.finish(draft, result.status);
  const { events } = runtime;
  if (ran && events.listens("tool:after")) events.emit("tool:after", { call, verdict, result });
  if (events.listens("tool:end")) events.emit("tool:end", { call, status: result.status, result, verdict });
  return result;
}
