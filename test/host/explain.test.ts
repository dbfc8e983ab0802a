import { createHost, type Host, type Plugin } from "@toolgate/host";
import { afterEach, describe, expect, it } from "vitest";
import { recordEvents } from "../helpers/recorders.js";

const hosts: Host[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});

async function hostWith(plugins: Plugin[]): Promise<Host> {
  const host = await createHost({ pluginsDir: false, configFile: false, logger: false, tools: { act: { execute: () => "acted" } }, plugins });
  hosts.push(host);
  return host;
}

const answering = (name: string, answer: () => unknown): Plugin => ({ name, hooks: { pre_tool_call: answer as never } });

describe("host.explainToolCall", () => {
  it("reports every pre_tool_call plugin in order, sync and async, with the final verdict", async () => {
    const host = await hostWith([
      answering("p1-none", () => undefined),
      answering("p2-allow", async () => ({ action: "allow", reason: "trusted" })),
      answering("p3-modify", () => ({ action: "modify", args: { path: "safe" } })),
      answering("p4-ask", async () => ({ action: "ask", message: "sure?" })),
      answering("p5-invalid", () => ({ action: "deny" })),
      answering("p6-error", () => {
        throw new Error("store down");
      }),
      answering("p7-block", () => ({ action: "block", message: "no" })),
    ]);
    const explanation = await host.explainToolCall({ id: "e1", name: "act", args: { path: "a" } });
    expect(explanation.plugins).toEqual([
      { plugin: "p1-none", outcome: "none" },
      { plugin: "p2-allow", outcome: "allow", message: "trusted" },
      { plugin: "p3-modify", outcome: "modify", args: { path: "safe" } },
      { plugin: "p4-ask", outcome: "ask", message: "sure?" },
      { plugin: "p5-invalid", outcome: "invalid", message: expect.any(String) },
      { plugin: "p6-error", outcome: "error", message: expect.stringContaining("store down") },
      { plugin: "p7-block", outcome: "block", message: "no" },
    ]);
    // The first block in plugin order is the failing hook's (fail closed).
    expect(explanation.verdict).toMatchObject({ action: "block", plugin: "p6-error", args: { path: "safe" } });
  });

  it("emits no event and remembers no verdict", async () => {
    let checks = 0;
    const host = await hostWith([answering("count", () => void checks++)]);
    const events = recordEvents(host.events);
    const call = { id: "e2", name: "act", args: {} };
    expect((await host.explainToolCall(call)).verdict).toEqual({ action: "allow", args: {} });
    expect(events).toEqual([]);
    await host.callTool(call, { skipPreToolCallHook: true });
    expect(checks).toBe(2);
  });

  it("gives the same verdict as checkToolCall", async () => {
    const host = await hostWith([answering("a", async () => ({ action: "ask", message: "?" })), answering("b", () => ({ action: "allow" }))]);
    const call = { id: "e3", name: "act", args: { x: 1 } };
    expect((await host.explainToolCall(call)).verdict).toEqual(await host.checkToolCall(call));
  });
});
