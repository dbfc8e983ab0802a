import type { RunContext, RunToolApprovalItem } from "@openai/agents";
import type { ToolCall, Verdict } from "@toolgate/host";
import { type CallGate, generatedCallId } from "./gate.js";

type ApprovalAnswer = { approve: boolean; reason?: string };
type OnApproval = (runContext: RunContext, item: RunToolApprovalItem) => Promise<ApprovalAnswer>;
type NeedsApproval<Input> = (runContext: RunContext, input: Input, callId?: string) => Promise<boolean>;

/**
 * The gate on a tool the SDK runs itself (shell, apply_patch): `needsApproval` decides, a block is
 * rejected through `onApproval` with the plugin's message (the model reads it as the tool's output),
 * an `ask` waits for the SDK's approval, and the executor runs on the verdict's final arguments.
 */
export interface ApprovalSeam<Input extends object> {
  needsApproval: NeedsApproval<Input>;
  onApproval: OnApproval;
  /** The verdict for an input about to run: the one decided at approval, or decided now. */
  verdictFor(input: Input): Promise<{ call: ToolCall; verdict: Verdict }>;
}

export function createApprovalSeam<Input extends object>(options: {
  gate: CallGate;
  name: string;
  kind: string;
  argsOf: (input: Input) => Record<string, unknown>;
  needsApproval: NeedsApproval<Input>;
  onApproval: OnApproval | undefined;
}): ApprovalSeam<Input> {
  const { gate, name, kind, argsOf } = options;
  // Keyed by the input object: the SDK hands the same action/operation object to needsApproval and
  // to the executor, which gets no call id.
  const byInput = new WeakMap<Input, { call: ToolCall; verdict: Verdict }>();
  const byCallId = new Map<string, { call: ToolCall; verdict: Verdict }>();

  return {
    async needsApproval(runContext, input, callId) {
      const call: ToolCall = { id: callId ?? generatedCallId(kind), name, args: argsOf(input), kind };
      const verdict = await gate.check(call);
      byInput.set(input, { call, verdict });
      byCallId.set(call.id, { call, verdict });
      if (verdict.action !== "allow") return true;
      return options.needsApproval(runContext, verdict.args as never, callId);
    },
    async onApproval(runContext, item) {
      const callId = callIdOf(item);
      const decided = callId === undefined ? undefined : byCallId.get(callId);
      if (decided?.verdict.action === "block") {
        byCallId.delete(decided.call.id);
        return { approve: false, reason: await gate.blockedText(decided.call, decided.verdict) };
      }
      if (options.onApproval) return options.onApproval(runContext, item);
      // Neither yes nor no leaves the call pending: the run stops with an interruption for a human
      // (the SDK's resolveToolApproval reads only `approve === true` and `approve === false`).
      return { approve: undefined } as unknown as ApprovalAnswer;
    },
    async verdictFor(input) {
      const decided = byInput.get(input);
      if (decided) {
        byInput.delete(input);
        byCallId.delete(decided.call.id);
        return decided;
      }
      const call: ToolCall = { id: generatedCallId(kind), name, args: argsOf(input), kind };
      return { call, verdict: await gate.check(call) };
    },
  };
}

function callIdOf(item: RunToolApprovalItem): string | undefined {
  const raw = item.rawItem as { callId?: unknown; id?: unknown };
  if (typeof raw.callId === "string") return raw.callId;
  return typeof raw.id === "string" ? raw.id : undefined;
}
