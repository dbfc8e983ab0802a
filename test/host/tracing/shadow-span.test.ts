// A shadow participant's would-be verdict on the call's `execute_tool` span, read back from what the
// real OpenTelemetry SDK exported: set only where it differs from the verdict.
import { context, trace } from "@opentelemetry/api";
import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { createHost, type Host, type PluginEntry, type Plugin } from "@toolgate/host";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

const exporter = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
beforeAll(() => provider.register());
afterAll(async () => {
  await provider.shutdown();
  trace.disable();
  context.disable();
});

const hosts: Host[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
  exporter.reset();
});

const tools = { write: { execute: () => "written" } };
const blocks: Plugin = { name: "would-block", hooks: { pre_tool_call: () => ({ action: "block", message: "not yet" }) } };
const asks: Plugin = { name: "would-ask", hooks: { pre_tool_call: () => ({ action: "ask", message: "sure?" }) } };

async function hostWith(plugins: PluginEntry[], onAsk?: () => boolean): Promise<Host> {
  const host = await createHost({ pluginsDir: false, configFile: false, logger: false, protectPolicy: "off", tools, plugins, ...(onAsk ? { onAsk } : {}) });
  hosts.push(host);
  return host;
}

const shadowAttributes = () =>
  Object.fromEntries(
    Object.entries(exporter.getFinishedSpans()[0]!.attributes).filter(([key]) => key.startsWith("toolgate.shadow") || key === "toolgate.verdict"),
  );

describe("the span of a call a shadow participant would have changed", () => {
  it("callTool: the verdict that ran, and the shadow verdict with its source", async () => {
    const host = await hostWith([[blocks, {}, { shadow: true }]]);
    expect((await host.callTool({ id: "c1", name: "write", args: {} })).status).toBe("ok");
    expect(shadowAttributes()).toEqual({
      "toolgate.verdict": "allow",
      "toolgate.shadow.verdict": "block",
      "toolgate.shadow.source.kind": "plugin",
      "toolgate.shadow.source.name": "would-block",
    });
  });

  it("checkToolCall: a shadow block beside a shadow ask names the block", async () => {
    const host = await hostWith([
      [asks, {}, { shadow: true }],
      [blocks, {}, { shadow: true }],
    ]);
    await host.checkToolCall({ id: "c1", name: "write", args: {} });
    expect(shadowAttributes()).toMatchObject({ "toolgate.shadow.verdict": "block", "toolgate.shadow.source.name": "would-block" });
  });

  it("no shadow attribute when the shadow answer changes nothing (the call is blocked anyway)", async () => {
    const host = await hostWith([[asks, {}, { shadow: true }], blocks]);
    await host.checkToolCall({ id: "c1", name: "write", args: {} });
    expect(shadowAttributes()).toEqual({ "toolgate.verdict": "block" });
  });

  it("an ask approved through onAsk: the call ran on allow, and the shadow block and ask are still told", async () => {
    const approve = () => true;
    const blocking = await hostWith([[blocks, {}, { shadow: true }], asks], approve);
    expect((await blocking.callTool({ id: "c1", name: "write", args: {} })).status).toBe("ok");
    expect(shadowAttributes()).toMatchObject({ "toolgate.verdict": "allow", "toolgate.shadow.verdict": "block" });
    exporter.reset();
    const asking = await hostWith([[{ ...asks, name: "shadow-asker" }, {}, { shadow: true }], asks], approve);
    await asking.callTool({ id: "c2", name: "write", args: {} });
    expect(shadowAttributes()).toMatchObject({ "toolgate.verdict": "allow", "toolgate.shadow.verdict": "ask", "toolgate.shadow.source.name": "shadow-asker" });
  });
});
