// The `execute_tool` span of every call, recorded by the real OpenTelemetry SDK (NodeTracerProvider,
// registered globally as a preload would, with the in-memory exporter). What toolgate puts on a span is
// read back from what the SDK exported, not from toolgate.
import { context, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { createHost, type Host, type HostOptions, type Plugin } from "@toolgate/host";
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

const executed: string[] = [];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const tools = {
  read: { kind: "file_read", execute: (args: Record<string, unknown>) => (executed.push("read"), `contents of ${String(args.path)}`) },
  fail: {
    execute() {
      executed.push("fail");
      throw new Error("disk on fire");
    },
  },
  slow: { execute: async () => (executed.push("slow"), await sleep(30), "done") },
  fetcher: {
    // A span the tool starts itself, as an instrumented HTTP client inside it would.
    execute: async () => {
      await sleep(1);
      trace.getTracer("test").startActiveSpan("inner", (span) => span.end());
      return "fetched";
    },
  },
};

const blockSecrets: Plugin = {
  name: "no-secrets",
  hooks: { pre_tool_call: (call) => (String(call.args.path).includes("secret") ? { action: "block", message: "secrets stay secret" } : undefined) },
};
const slowGate: Plugin = { name: "slow-gate", hooks: { pre_tool_call: async () => void (await sleep(30)) } };

async function hostWith(plugins: Plugin[], options: HostOptions = {}): Promise<Host> {
  executed.length = 0;
  const host = await createHost({ pluginsDir: false, configFile: false, logger: false, tools, plugins, ...options });
  hosts.push(host);
  return host;
}

function onlySpan(): ReadableSpan {
  const spans = exporter.getFinishedSpans();
  expect(spans.map((span) => span.name)).toHaveLength(1);
  return spans[0]!;
}

const ms = (span: ReadableSpan) => span.duration[0] * 1e3 + span.duration[1] / 1e6;

describe("one execute_tool span per call", () => {
  it("an allowed call: the GenAI attributes, the verdict and the outcome, status unset", async () => {
    const host = await hostWith([blockSecrets]);
    const result = await host.callTool({ id: "call-1", name: "read", args: { path: "notes.txt" } });
    expect(result.status).toBe("ok");
    const span = onlySpan();
    expect(span.name).toBe("execute_tool read");
    expect(span.kind).toBe(SpanKind.INTERNAL);
    expect(span.attributes).toEqual({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "read",
      "gen_ai.tool.call.id": "call-1",
      "session.id": host.session.id,
      "toolgate.tool.kind": "file_read",
      "toolgate.verdict": "allow",
      "toolgate.outcome": "ok",
    });
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(span.instrumentationScope.name).toBe("@toolgate/host");
  });

  it("a call blocked by a plugin: who blocked it and why; the span ends at the block, the tool never ran", async () => {
    const host = await hostWith([blockSecrets]);
    await host.callTool({ id: "call-2", name: "read", args: { path: "secret.txt" } });
    expect(executed).toEqual([]);
    expect(onlySpan().attributes).toMatchObject({
      "gen_ai.tool.call.id": "call-2",
      "toolgate.verdict": "block",
      "toolgate.source.kind": "plugin",
      "toolgate.source.name": "no-secrets",
      "toolgate.message": "secrets stay secret",
      "toolgate.outcome": "blocked",
    });
    expect(onlySpan().status.code).toBe(SpanStatusCode.UNSET);
  });

  it("a call blocked by a permission rule names the rule as written", async () => {
    const host = await hostWith([], { permissions: { deny: ["read:path=*.env"] } });
    await host.callTool({ id: "call-3", name: "read", args: { path: "prod.env" } });
    expect(onlySpan().attributes).toMatchObject({
      "toolgate.verdict": "block",
      "toolgate.source.kind": "rule",
      "toolgate.source.name": "read:path=*.env",
      "toolgate.outcome": "blocked",
    });
  });

  it("a tool that throws: status error with the message, error.type set", async () => {
    const host = await hostWith([]);
    const result = await host.callTool({ id: "call-4", name: "fail", args: {} });
    const span = onlySpan();
    expect(span.attributes).toMatchObject({ "toolgate.verdict": "allow", "toolgate.outcome": "error", "error.type": "tool_error" });
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: result.content });
    expect(result.content).toContain("disk on fire");
  });

  it("an unknown tool is an error too", async () => {
    const host = await hostWith([]);
    await host.callTool({ id: "call-5", name: "nope", args: {} });
    expect(onlySpan()).toMatchObject({ name: "execute_tool nope", status: { code: SpanStatusCode.ERROR }, attributes: { "toolgate.outcome": "error" } });
  });

  it("checkToolCall: a span that ends with the verdict, nothing executed", async () => {
    const host = await hostWith([blockSecrets]);
    await host.checkToolCall({ id: "check-1", name: "read", args: { path: "notes.txt" } });
    await host.checkToolCall({ id: "check-2", name: "read", args: { path: "secret.txt" } });
    expect(executed).toEqual([]);
    const [allowed, blocked] = exporter.getFinishedSpans();
    expect(allowed!.attributes).toMatchObject({ "gen_ai.tool.call.id": "check-1", "toolgate.verdict": "allow" });
    expect(allowed!.attributes).not.toHaveProperty("toolgate.outcome");
    expect(blocked!.attributes).toMatchObject({
      "gen_ai.tool.call.id": "check-2",
      "toolgate.verdict": "block",
      "toolgate.source.name": "no-secrets",
      "toolgate.outcome": "blocked",
    });
  });

  it("checkToolCall then callTool(skipPreToolCallHook): the run's span is marked and linked to the decision's", async () => {
    const host = await hostWith([blockSecrets]);
    const call = { id: "pair-1", name: "read", args: { path: "notes.txt" } };
    await host.checkToolCall(call);
    await host.callTool(call, { skipPreToolCallHook: true });
    const [decision, run] = exporter.getFinishedSpans();
    expect(decision!.attributes).not.toHaveProperty("toolgate.checked");
    expect(run!.attributes).toMatchObject({ "gen_ai.tool.call.id": "pair-1", "toolgate.checked": true, "toolgate.outcome": "ok" });
    expect(run!.links.map((link) => link.context.spanId)).toEqual([decision!.spanContext().spanId]);
  });

  it("callTools: one span per call of the batch", async () => {
    const host = await hostWith([blockSecrets]);
    await host.callTools(
      [
        { id: "b1", name: "read", args: { path: "a.txt" } },
        { id: "b2", name: "read", args: { path: "secret" } },
        { id: "b3", name: "fail", args: {} },
      ],
      { concurrency: 2 },
    );
    const outcomes = Object.fromEntries(
      exporter.getFinishedSpans().map((span) => [span.attributes["gen_ai.tool.call.id"], span.attributes["toolgate.outcome"]]),
    );
    expect(outcomes).toEqual({ b1: "ok", b2: "blocked", b3: "error" });
  });

  it("the span covers an async gate and an async tool", async () => {
    const host = await hostWith([slowGate]);
    await host.callTool({ id: "slow-1", name: "slow", args: {} });
    expect(ms(onlySpan())).toBeGreaterThanOrEqual(55);
    exporter.reset();
    await host.checkToolCall({ id: "slow-2", name: "slow", args: {} });
    // The gate only: the tool does not run from checkToolCall.
    expect(ms(onlySpan())).toBeGreaterThanOrEqual(25);
    expect(executed).toEqual(["slow"]);
  });

  it("is the child of the caller's active span, and the parent of the spans the tool starts", async () => {
    const host = await hostWith([]);
    await trace.getTracer("test").startActiveSpan("agent turn", async (turn) => {
      await host.callTool({ id: "nested", name: "fetcher", args: {} });
      turn.end();
    });
    const byName = Object.fromEntries(exporter.getFinishedSpans().map((span) => [span.name, span]));
    const tool = byName["execute_tool fetcher"]!;
    expect(tool.parentSpanContext?.spanId).toBe(byName["agent turn"]!.spanContext().spanId);
    expect(byName.inner!.parentSpanContext?.spanId).toBe(tool.spanContext().spanId);
    expect(tool.spanContext().traceId).toBe(byName["agent turn"]!.spanContext().traceId);
  });

  it("records nothing once the provider is gone", async () => {
    const host = await hostWith([]);
    trace.disable();
    try {
      await host.callTool({ id: "untraced", name: "read", args: { path: "x" } });
      expect(exporter.getFinishedSpans()).toEqual([]);
    } finally {
      provider.register();
    }
    await host.callTool({ id: "traced-again", name: "read", args: { path: "x" } });
    expect(onlySpan().attributes["gen_ai.tool.call.id"]).toBe("traced-again");
  });
});
