import { createHost } from "@toolgate/host";
import { generateText, stepCountIs, streamText, tool, type ToolSet } from "ai5";
import { MockLanguageModelV2 } from "ai5/test";
import { describe, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { gateTools } from "./index.js";

// Compiled under the workspace's strict tsconfig (exactOptionalPropertyTypes included) against ai@5.
describe("gateTools with ai@5", () => {
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
    };
    const gated = gateTools(tools, host, { kinds: { terminal: "shell" } });
    expectTypeOf(gated).toEqualTypeOf<typeof tools>();
    expectTypeOf(gated).toExtend<ToolSet>();
    const model = new MockLanguageModelV2();
    const result = await generateText({ model, tools: gated, prompt: "go", stopWhen: stepCountIs(3) });
    expectTypeOf(result.toolResults[0]!.input).not.toBeAny();
    streamText({ model, tools: gateTools({ terminal: tools.terminal }, host), prompt: "go" });
  });
});
