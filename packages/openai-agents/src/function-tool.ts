import type { FunctionTool, RunContext } from "@openai/agents";
import type { ToolCall, Verdict } from "@toolgate/host";
import { type CallGate, generatedCallId } from "./gate.js";

// biome-ignore lint/suspicious/noExplicitAny: the SDK's own tool lists are typed with `any` parameters.
type AnyFunctionTool = FunctionTool<any, any, any>;
type ToolCallDetails = Parameters<AnyFunctionTool["invoke"]>[2];

/**
 * A function tool whose calls pass the gate: `needsApproval` decides (an `ask` becomes the SDK's
 * approval), `invoke` runs the tool with the final arguments or returns the block as its output.
 */
export function gateFunctionTool<Tool extends AnyFunctionTool>(tool: Tool, gate: CallGate): Tool {
  const stash = new Map<string, { call: ToolCall; verdict: Verdict }>();
  const callOf = (callId: string, args: Record<string, unknown>) => ({ id: callId, name: tool.name, args, kind: "function" });

  const needsApproval = async (runContext: RunContext, input: unknown, callId?: string): Promise<boolean> => {
    const id = callId ?? generatedCallId("call");
    const call = callOf(id, argsOf(input));
    const verdict = await gate.check(call);
    stash.set(id, { call, verdict });
    if (verdict.action === "ask") return true;
    if (verdict.action === "block") return false;
    return tool.needsApproval(runContext, verdict.args as never, callId);
  };

  const invoke = async (runContext: RunContext, input: string, details?: ToolCallDetails): Promise<unknown> => {
    const callId = details?.toolCall?.callId ?? generatedCallId("call");
    // Without a verdict from the approval step (a run resumed from saved state), decide now; an `ask`
    // then reaching `invoke` was approved through the SDK.
    const decided = stash.get(callId) ?? (await decideNow(callId, input));
    stash.delete(callId);
    const { call, verdict } = decided;
    if (verdict.action === "block") return gate.blockedText(call, verdict);
    const finalInput = sameArgs(verdict.args, call.args) ? input : JSON.stringify(verdict.args);
    return tool.invoke(runContext, finalInput, details);
  };

  const decideNow = async (callId: string, input: string) => {
    const call = callOf(callId, argsOf(parseInput(input)));
    return { call, verdict: await gate.check(call) };
  };

  return { ...tool, needsApproval, invoke } as Tool;
}

function parseInput(input: string): unknown {
  try {
    return input === "" ? {} : JSON.parse(input);
  } catch {
    return { input };
  }
}

/** The host takes arguments as a plain object; anything else is wrapped so plugins still see it. */
function argsOf(input: unknown): Record<string, unknown> {
  return typeof input === "object" && input !== null && !Array.isArray(input) ? { ...(input as Record<string, unknown>) } : { input };
}

function sameArgs(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}
