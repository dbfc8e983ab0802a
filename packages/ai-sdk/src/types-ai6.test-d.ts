import { createHost } from "@toolgate/host";
import { generateText, stepCountIs, streamText, tool, type ToolSet } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { gateTools } from "./index.js";

// Compiled under the workspace's strict tsconfig (exactOptionalPropertyTypes included) against ai@6.
describe("gateTools with ai@6", () => {
  it("returns the tools map's own type, which generateText and streamText accept", async () => {
    const host = await createHost();
    const tools = {
      terminal: tool({ inputSchema: z.object({ command: z.string() }), execute: async ({ command }) => ({ ran: command }) }),
      streaming: tool({
        inputSchema: z.object({ n: z.number() }),
        async *execute({ n }) {
          yield n;
        },
      }),
      approved: tool({ inputSchema: z.object({}), needsApproval: true, execute: async () => "ok" }),
    };
    const gated = gateTools(tools, host, { kinds: { terminal: "shell" } });
    expectTypeOf(gated).toEqualTypeOf<typeof tools>();
    expectTypeOf(gated).toExtend<ToolSet>();
    const model = new MockLanguageModelV3();
    const result = await generateText({ model, tools: gated, prompt: "go", stopWhen: stepCountIs(3) });
    expectTypeOf(result.toolResults[0]!.input).not.toBeAny();
    streamText({ model, tools: gateTools({ terminal: tools.terminal }, host), prompt: "go" });
  });
});
