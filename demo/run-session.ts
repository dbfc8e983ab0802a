import { toToolMessage, type Host, type HostEvents, type ToolCall, type ToolDefinition, type Verdict } from "@toolgate/host";
import type { AssistantToolCall, ChatMessage, ChatModel } from "./fake-model.js";
import type { Decision, Transcript } from "./transcript.js";

export interface SessionSetup {
  host: Host;
  model: ChatModel;
  tools: Record<string, ToolDefinition>;
  request: string;
  transcript: Transcript;
  /** A runaway model must not loop forever. @default 12 */
  maxTurns?: number;
}

/**
 * The agent loop every tool-calling app has: ask the model, run the tool calls it makes through the
 * host, hand the tool messages back, repeat until it answers without tool calls.
 */
export async function runSession({ host, model, tools, request, transcript, maxTurns = 12 }: SessionSetup): Promise<void> {
  const messages: ChatMessage[] = [{ role: "user", content: request }];
  transcript.write({ type: "user", content: request });
  // The verdict of each call, as the host reports it: `tool:end` fires once for every call, blocked or not.
  const verdicts = new Map<string, Verdict | undefined>();
  const onEnd = ({ call, verdict }: HostEvents["tool:end"]) => verdicts.set(call.id, verdict);
  host.events.on("tool:end", onEnd);
  try {
    for (let turn = 0; turn < maxTurns; turn++) {
      const reply = model.respond(messages);
      messages.push(reply);
      transcript.write({ type: "assistant", message: reply });
      if (!reply.tool_calls?.length) return;
      const calls = reply.tool_calls.map((requested) => toToolCall(requested, tools));
      // Parallel tool calls go through as one batch; concurrency 1 keeps the rate limit deterministic.
      const results = calls.length === 1 ? [await host.callTool(calls[0]!)] : await host.callTools(calls, { concurrency: 1 });
      results.forEach((result, index) => {
        const call = calls[index]!;
        const message = toToolMessage(result, "openai");
        messages.push(message);
        transcript.write({ type: "tool", call, decision: toDecision(call, verdicts.get(call.id)), status: result.status, message });
      });
    }
    throw new Error(`the model was still calling tools after ${maxTurns} turns`);
  } finally {
    host.events.off("tool:end", onEnd);
  }
}

/** An OpenAI tool call as the host's `ToolCall`; the kind comes from the tool's definition. */
function toToolCall(requested: AssistantToolCall, tools: Record<string, ToolDefinition>): ToolCall {
  const args = JSON.parse(requested.function.arguments) as Record<string, unknown>;
  const kind = tools[requested.function.name]?.kind;
  return { id: requested.id, name: requested.function.name, args, ...(kind === undefined ? {} : { kind }) };
}

function toDecision(call: ToolCall, verdict: Verdict | undefined): Decision {
  if (!verdict) return { action: "ALLOW" };
  // A rule or a configured hook is named by what it is: "rule terminal:command=*sudo*", "command ./guards/no-network.sh".
  const { source } = verdict;
  const by =
    source !== undefined && source.kind !== "plugin"
      ? { plugin: `${source.kind} ${source.name}` }
      : verdict.plugin === undefined
        ? {}
        : { plugin: verdict.plugin };
  const message = verdict.message === undefined ? {} : { message: verdict.message };
  if (verdict.action === "block") return { action: "BLOCK", ...by, ...message };
  if (verdict.action === "ask") return { action: "ASK", ...by, ...message };
  if (JSON.stringify(verdict.args) !== JSON.stringify(call.args)) return { action: "MODIFY", args: verdict.args, ...message };
  return { action: "ALLOW", ...by, ...message };
}
