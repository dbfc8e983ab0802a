import type { DecisionRecord, Plugin } from "@toolgate/plugin-sdk";
import { describe, expect, it } from "vitest";
import { createHost } from "../create-host.js";

const timeoutMs = 20;

function busy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // spin
  }
}

/** One plugin per way a hook can answer, so the record's draft and explain's trace each hear all of them. */
const plugins: Plugin[] = [
  { name: "quiet", order: 1, hooks: { pre_tool_call: () => undefined } },
  { name: "late", order: 2, hooks: { pre_tool_call: () => void busy(timeoutMs * 3) } },
  {
    name: "throws",
    order: 3,
    hooks: {
      pre_tool_call: () => {
        throw new Error("boom");
      },
    },
  },
  { name: "junk", order: 4, hooks: { pre_tool_call: () => 42 as never } },
  { name: "modifies", order: 5, hooks: { pre_tool_call: async () => ({ action: "modify", args: { path: "b" } }) } },
  { name: "allows", order: 6, hooks: { pre_tool_call: () => ({ action: "allow", reason: "fine" }) } },
];

async function host(records: DecisionRecord[]) {
  return createHost({
    plugins,
    pluginsDir: false,
    configFile: false,
    logger: false,
    hookTimeoutMs: timeoutMs,
    onHookError: "allow",
    protectPolicy: "off",
    on: { decision: (record) => records.push(record) },
  });
}

describe("the gate's run and its listeners", () => {
  it("the record hears every participant's answer: none, timeout, error, an invalid result as none, modify, allow", async () => {
    const records: DecisionRecord[] = [];
    const gated = await host(records);
    await gated.checkToolCall({ id: "c1", name: "act", args: { path: "a" } });
    const participants = records[0]!.participants.map(({ name, action, message }) => [name, action, message?.split(":")[0]]);
    expect(participants).toEqual([
      ["quiet", "none", undefined],
      ["late", "timeout", 'plugin "late"'],
      ["throws", "error", 'plugin "throws"'],
      ["junk", "none", "invalid result, ignored as no opinion"],
      ["modifies", "modify", undefined],
      ["allows", "allow", "fine"],
    ]);
    await gated.close();
  });

  it("explain's trace hears the same run, with the arguments after each modify", async () => {
    const gated = await host([]);
    const explanation = await gated.explainToolCall({ id: "c1", name: "act", args: { path: "a" } });
    expect(explanation.plugins.map(({ plugin, outcome }) => [plugin, outcome])).toEqual([
      ["quiet", "none"],
      ["late", "error"],
      ["throws", "error"],
      ["junk", "invalid"],
      ["modifies", "modify"],
      ["allows", "allow"],
    ]);
    expect(explanation.plugins[4]!.args).toEqual({ path: "b" });
    await gated.close();
  });
});
