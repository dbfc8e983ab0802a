/**
 * `pnpm bench:tracing`: what tracing costs a call. With no OpenTelemetry SDK registered, all that runs
 * is `startToolSpan` finding no provider (one read of a global): timed alone and next to a whole
 * `callTool`, in the same rounds. Then the real SDK is registered (NodeTracerProvider, batched to an
 * exporter that drops what it gets) to show what a recorded span costs. Runs the sources through tsx; the figures are per call.
 */
import { BatchSpanProcessor, type SpanExporter } from "@opentelemetry/sdk-trace-base";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { createHost, type Host, type Plugin, type ToolCall } from "@toolgate/host";
import { startToolSpan } from "../packages/host/src/tracing/tool-span.js";
import { median } from "./measure.js";

const quick = process.argv.includes("--quick");
const rounds = quick ? 5 : 25;
const runsPerBatch = quick ? 2_000 : 20_000;

const call: ToolCall = { id: "bench-1", name: "echo", args: { text: "hello" } };
const tenPlugins: Plugin[] = Array.from({ length: 10 }, (_, index) => ({ name: `p${index}`, hooks: { pre_tool_call: () => undefined } }));

async function hostWith(plugins: Plugin[]): Promise<Host> {
  return createHost({
    pluginsDir: false,
    configFile: false,
    logger: false,
    plugins,
    tools: { echo: { execute: (args: Record<string, unknown>) => String(args.text) } },
  });
}

type Run = () => unknown;

/** ns per run of each contender: the median over rounds, every round timing each contender once, in turn. */
async function measure(contenders: Record<string, Run>): Promise<Record<string, number>> {
  const samples: Record<string, number[]> = Object.fromEntries(Object.keys(contenders).map((name) => [name, []]));
  for (let round = -2; round < rounds; round++) {
    for (const [name, run] of Object.entries(contenders)) {
      const started = performance.now();
      // A synchronous contender is not awaited: an await alone costs more than what it measures.
      for (let index = 0; index < runsPerBatch; index++) {
        const result = run();
        if (result instanceof Promise) await result;
      }
      if (round >= 0) samples[name]!.push(((performance.now() - started) * 1e6) / runsPerBatch);
    }
  }
  return Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, median(values)]));
}

const bare = await hostWith([]);
const ten = await hostWith(tenPlugins);
const session = bare.session;

const off = await measure({
  "startToolSpan, no SDK": () => startToolSpan(call, session),
  "callTool, 0 plugins": () => bare.callTool(call),
  "callTool, 10 plugins": () => ten.callTool(call),
});

// Spans are counted and dropped: an exporter that kept a million spans would measure the garbage collector.
let exported = 0;
const exporter: SpanExporter = {
  export: (spans, done) => {
    exported += spans.length;
    done({ code: 0 });
  },
  shutdown: async () => {},
};
const provider = new NodeTracerProvider({
  spanProcessors: [new BatchSpanProcessor(exporter, { maxQueueSize: 1_000_000, maxExportBatchSize: 4096, scheduledDelayMillis: 200 })],
});
provider.register();
const on = await measure({
  "callTool, 0 plugins, SDK on": () => bare.callTool(call),
  "callTool, 10 plugins, SDK on": () => ten.callTool(call),
});
await provider.shutdown();
if (exported === 0) throw new Error("no span was exported: the SDK rows measured nothing");
await Promise.all([bare.close(), ten.close()]);

const spanOff = off["startToolSpan, no SDK"]!;
const rows: [string, number, string][] = [
  ["startToolSpan, no SDK (all tracing adds)", spanOff, ""],
  ["callTool, 0 plugins, no SDK", off["callTool, 0 plugins"]!, `tracing ${((spanOff / off["callTool, 0 plugins"]!) * 100).toFixed(2)} % of it`],
  ["callTool, 10 plugins, no SDK", off["callTool, 10 plugins"]!, `tracing ${((spanOff / off["callTool, 10 plugins"]!) * 100).toFixed(2)} % of it`],
  [
    "callTool, 0 plugins, SDK on",
    on["callTool, 0 plugins, SDK on"]!,
    `${(on["callTool, 0 plugins, SDK on"]! / off["callTool, 0 plugins"]!).toFixed(1)}x no SDK`,
  ],
  [
    "callTool, 10 plugins, SDK on",
    on["callTool, 10 plugins, SDK on"]!,
    `${(on["callTool, 10 plugins, SDK on"]! / off["callTool, 10 plugins"]!).toFixed(1)}x no SDK`,
  ],
];
console.log(`tracing cost per call (median of ${rounds} rounds of ${runsPerBatch} calls; batched to a discarding exporter when on)`);
for (const [name, ns, note] of rows) console.log(`${name.padEnd(42)} ${ns.toFixed(0).padStart(7)} ns  ${note}`);
