import { gateTools } from "@toolgate/ai-sdk";
import type { Host } from "@toolgate/host";
import { generateText, stepCountIs, tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { z } from "zod";

/** What the AI SDK did with the call: ran the tool with these arguments, showed the model a denial, or asked for approval. */
export type AiSdkDecision = { action: "allow"; args: Record<string, unknown> } | { action: "block"; reason: string } | { action: "ask" };

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 1, text: 1, reasoning: undefined } };

/**
 * The AI SDK's real generateText with its mock model and a `Bash` tool gated by `host` (`gateTools`): the
 * model calls `Bash` once with `args`, then stops on whatever it reads back. Arguments beside `command`
 * are kept, so the tool runs with what the gate allowed.
 */
export async function bashThroughAiSdk(host: Host, args: Record<string, unknown>): Promise<AiSdkDecision> {
  let ranWith: Record<string, unknown> | undefined;
  let denial: string | undefined;
  const model = new MockLanguageModelV3({
    doGenerate: async ({ prompt }) => {
      const results = prompt.flatMap((message) => (message.role === "tool" ? message.content : [])).filter((part) => part.type === "tool-result");
      const output = results[0]?.output;
      if (output?.type === "execution-denied") denial = output.reason;
      if (results.length > 0) return { content: [{ type: "text", text: "done" }], finishReason: { unified: "stop", raw: undefined }, usage, warnings: [] };
      const call = { type: "tool-call" as const, toolCallId: "c1", toolName: "Bash", input: JSON.stringify(args) };
      return { content: [call], finishReason: { unified: "tool-calls", raw: undefined }, usage, warnings: [] };
    },
  });
  const Bash = tool({ inputSchema: z.object({ command: z.string() }).loose(), execute: async (input) => ((ranWith = input), "ok") });
  const result = await generateText({ model, tools: gateTools({ Bash }, host), prompt: "go", stopWhen: stepCountIs(3) });
  if (result.content.some((part) => part.type === "tool-approval-request")) return { action: "ask" };
  if (denial !== undefined) return { action: "block", reason: denial };
  if (ranWith !== undefined) return { action: "allow", args: ranWith };
  throw new Error("the AI SDK neither ran, denied nor asked about the call");
}
