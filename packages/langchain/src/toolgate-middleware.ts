import { randomUUID } from "node:crypto";
import { askMessage, blockMessage, type Host, type ToolCall, type Verdict } from "@toolgate/host";
import { createMiddleware, type HITLRequest, type HITLResponse, type ToolCallHandler, ToolMessage } from "langchain";

export interface ToolgateMiddlewareOptions {
  /**
   * What an `ask` verdict does. `"block"`: the host's `onAsk` decides; a host without one blocks the
   * call with the plugin's message, as `host.callTool` does. `"interrupt"`: the run pauses with the same
   * interrupt as `humanInTheLoopMiddleware` (a `HITLRequest`; resume with
   * `new Command({ resume: HITLResponse })`), which needs a checkpointer; the host's `onAsk` is not asked.
   * @default "block"
   */
  ask?: "interrupt" | "block";
}

/**
 * A `createAgent` middleware that passes every tool call through the host's `pre_tool_call` plugins
 * before the tool runs (`wrapToolCall`):
 *
 * - allow: the tool runs with the final arguments (every `modify` merged in); its result is untouched.
 * - block: the tool does not run; the model reads a `ToolMessage` with `status: "error"` carrying the
 *   host's `blockMessage`: the plugin's message, naming the plugin.
 * - ask: see {@link ToolgateMiddlewareOptions.ask}.
 *
 * A call without an id (some models give none) gets one generated for the host.
 */
export function toolgateMiddleware(host: Host, options: ToolgateMiddlewareOptions = {}) {
  const askMode = options.ask ?? "block";
  if (askMode !== "interrupt" && askMode !== "block")
    throw new TypeError(`toolgateMiddleware: options.ask must be "interrupt" or "block", got ${JSON.stringify(askMode)}`);

  // An interrupt re-runs the tool node when the run resumes: the verdict of a call waiting for a human
  // is kept, so pre_tool_call does not fire a second time for it (in this process).
  const waiting = new Map<string, Verdict>();

  return createMiddleware({
    name: "ToolgateMiddleware",
    wrapToolCall: async (request, handler) => {
      const { toolCall } = request;
      const call: ToolCall = { id: toolCall.id ?? `toolgate_${randomUUID()}`, name: toolCall.name, args: argsOf(toolCall.args), kind: "function" };
      const verdict =
        (toolCall.id === undefined ? undefined : waiting.get(toolCall.id)) ??
        (await host.checkToolCall(call, { resolveAsk: askMode === "block", surface: "langchain" }));
      // With ask: "block", an ask still standing here had no approver: the host blocks it as callTool would.
      if (verdict.action === "block" || (verdict.action === "ask" && askMode === "block")) return blocked(host, request, call, verdict);
      if (verdict.action === "ask") {
        if (toolCall.id !== undefined) waiting.set(toolCall.id, verdict);
        const answer = await askHuman(request, handler, call, verdict);
        if (toolCall.id !== undefined) waiting.delete(toolCall.id);
        return answer;
      }
      return handler(withArgs(request, verdict.args));
    },
  });
}

type Handler = ToolCallHandler;
type Request = Parameters<Handler>[0];

/**
 * The host ends the call it just checked as blocked (its tool:blocked and tool:end events fire, and
 * pre_tool_call does not fire again) and writes the message: `blockMessage`, or for an ask without an
 * approver the host's own "needs approval" block.
 */
async function blocked(host: Host, request: Request, call: ToolCall, verdict: Verdict): Promise<ToolMessage> {
  const result = await host.callTool(call, { skipPreToolCallHook: true });
  const content = result.status === "blocked" ? result.content : blockMessage(verdict);
  return new ToolMessage({ content, name: call.name, tool_call_id: request.toolCall.id ?? call.id, status: "error" });
}

/** The human-in-the-loop interrupt, in `humanInTheLoopMiddleware`'s shape, so one review UI serves both. */
async function askHuman(request: Request, handler: Handler, call: ToolCall, verdict: Verdict) {
  const interrupt = request.runtime.interrupt;
  if (typeof interrupt !== "function")
    throw new Error(
      `toolgateMiddleware: plugin "${verdict.plugin ?? "?"}" asked for approval of "${call.name}", but this run cannot be interrupted (compile the agent with a checkpointer)`,
    );
  const hitl: HITLRequest = {
    actionRequests: [{ name: call.name, args: verdict.args, description: askMessage(verdict) }],
    reviewConfigs: [{ actionName: call.name, allowedDecisions: ["approve", "edit", "reject"] }],
  };
  const response = (await interrupt(hitl)) as HITLResponse | undefined;
  const decision = response?.decisions?.[0];
  if (decision?.type === "approve") return handler(withArgs(request, verdict.args));
  if (decision?.type === "edit") return handler(withArgs(request, argsOf(decision.editedAction.args)));
  const content = decision?.type === "reject" && decision.message ? decision.message : `The user rejected the tool call "${call.name}".`;
  return new ToolMessage({ content, name: call.name, tool_call_id: request.toolCall.id ?? call.id, status: "error" });
}

function withArgs(request: Request, args: Record<string, unknown>): Request {
  return { ...request, toolCall: { ...request.toolCall, args } };
}

function argsOf(args: unknown): Record<string, unknown> {
  return typeof args === "object" && args !== null && !Array.isArray(args) ? { ...(args as Record<string, unknown>) } : { input: args };
}
