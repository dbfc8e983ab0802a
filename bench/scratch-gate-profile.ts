import type { Plugin, ToolCall } from "@toolgate/host";

const { createHost } = (await import(process.env.TOOLGATE_HOST ? new URL(`../${process.env.TOOLGATE_HOST}`, import.meta.url).href : "@toolgate/host")) as typeof import("@toolgate/host");
const call: ToolCall = { id: "call-1", name: "noop", args: { path: "README.md", recursive: false } };
const style = process.argv[2] ?? "async";
const count = Number(process.argv[3] ?? 10);
const entry = process.argv[4] ?? "check";
const plugins: Plugin[] = Array.from({ length: count }, (_, index) => ({
  name: `p-${String(index).padStart(4, "0")}`,
  hooks: { pre_tool_call: style === "sync" ? (new Function("call", "ctx", `return undefined /* ${index} */`) as never) : (new Function("call", "ctx", `return (async () => undefined /* ${index} */)()`) as never) },
}));
const host = await createHost({ plugins, pluginsDir: false, configFile: false, logger: false, tools: { noop: { execute() {} } } });
const batch = Array.from({ length: 256 }, (_, index) => ({ ...call, id: `c${index}` }));
const run = entry === "check" ? () => host.checkToolCall(call) : entry === "batch" ? () => host.callTools(batch, { concurrency: 64 }) : () => host.callTool(call);
const start = performance.now();
let calls = 0;
while (performance.now() - start < 3000) {
  for (let index = 0; index < 1000; index++) await run();
  calls += 1000;
}
console.log(`${style} ${count} ${entry}: ${((performance.now() - start) * 1e6 / calls).toFixed(0)} ns/call`);
process.exit(0);
