import { createHost, type Host, type ToolCall } from "@toolgate/host";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { countingPluginSource } from "../helpers/recorders.js";
import { createTempProject, type TempProject } from "../helpers/temp-project.js";

declare global {
  // eslint-disable-next-line no-var
  var __toolgateCounts: Record<string, number> | undefined;
}

const executed: string[] = [];
const tools = {
  echo: { execute: (args: Record<string, unknown>) => executed.push(String(args.text)) && `echo ${String(args.text)}` },
  slow: {
    async execute(args: Record<string, unknown>) {
      await new Promise((resolve) => setTimeout(resolve, Number(args.ms ?? 5)));
      executed.push(`slow:${String(args.ms)}`);
      return "done";
    },
  },
};

let project: TempProject;
let host: Host;

beforeAll(() => {
  project = createTempProject({
    "plugins/alpha.ts": countingPluginSource("alpha"),
    // An async policy plugin, so the concurrent path really interleaves.
    "plugins/beta.mjs": countingPluginSource("beta", "return new Promise((resolve) => setTimeout(resolve, 1));"),
    "plugins/gamma/package.json": JSON.stringify({ name: "gamma", type: "module", exports: "./main.js" }),
    "plugins/gamma/main.js": countingPluginSource("gamma"),
  });
});
afterAll(() => project.remove());

beforeEach(async () => {
  globalThis.__toolgateCounts = {};
  executed.length = 0;
  host = await createHost({ cwd: project.dir, tools, logger: false });
  expect(host.plugins.map((plugin) => [plugin.name, plugin.status])).toEqual([
    ["alpha", "loaded"],
    ["beta", "loaded"],
    ["gamma", "loaded"],
  ]);
});
afterEach(() => host.close());

function countsFor(callId: string): number[] {
  return ["alpha", "beta", "gamma"].map((plugin) => globalThis.__toolgateCounts?.[`${plugin}:${callId}`] ?? 0);
}

const calls = (n: number): ToolCall[] =>
  Array.from({ length: n }, (_, index) => ({ id: `call_${index}`, name: index % 2 ? "slow" : "echo", args: { text: `t${index}`, ms: 10 - index } }));

describe("pre_tool_call fires exactly once per plugin per call", () => {
  it("on a single call", async () => {
    await host.callTool({ id: "single", name: "echo", args: { text: "hi" } });
    expect(countsFor("single")).toEqual([1, 1, 1]);
    expect(executed).toEqual(["hi"]);
  });

  it("on a sequential batch", async () => {
    const batch = calls(6);
    await host.callTools(batch, { concurrency: 1 });
    for (const call of batch) expect(countsFor(call.id), call.id).toEqual([1, 1, 1]);
    expect(executed).toHaveLength(6);
  });

  it("on a concurrent batch", async () => {
    const batch = calls(8);
    const results = await host.callTools(batch, { concurrency: 4 });
    for (const call of batch) expect(countsFor(call.id), call.id).toEqual([1, 1, 1]);
    expect(results.map((result) => result.callId)).toEqual(batch.map((call) => call.id));
    // Finishing order differs from input order (slow calls sleep less the later they come).
    expect(executed).not.toEqual(batch.map((call) => (call.name === "echo" ? call.args.text : `slow:${String(call.args.ms)}`)));
  });

  it("on the agent-level path that hands a gated call to the registry with the skip-flag", async () => {
    const call = { id: "agent", name: "echo", args: { text: "from agent" } };
    const verdict = await host.checkToolCall(call);
    expect(verdict.action).toBe("allow");
    const result = await host.callTool(call, { skipPreToolCallHook: true });
    expect(result.status).toBe("ok");
    expect(countsFor("agent")).toEqual([1, 1, 1]);
  });

  it("on the agent-level path for a whole batch", async () => {
    const batch = calls(4);
    for (const call of batch) await host.checkToolCall(call);
    await Promise.all(batch.map((call) => host.callTool(call, { skipPreToolCallHook: true })));
    for (const call of batch) expect(countsFor(call.id)).toEqual([1, 1, 1]);
  });
});

describe("the skip-flag cannot bypass the gate", () => {
  it("is ignored for a call this host never gated", async () => {
    await host.callTool({ id: "never-gated", name: "echo", args: { text: "x" } }, { skipPreToolCallHook: true });
    expect(countsFor("never-gated")).toEqual([1, 1, 1]);
  });

  it("is ignored when the arguments changed after the check", async () => {
    await host.checkToolCall({ id: "swapped", name: "echo", args: { text: "harmless" } });
    await host.callTool({ id: "swapped", name: "echo", args: { text: "something else" } }, { skipPreToolCallHook: true });
    expect(countsFor("swapped")).toEqual([2, 2, 2]);
  });

  it("is ignored when the caller changed the arguments in place after the check", async () => {
    const call = { id: "mutated", name: "echo", args: { text: "harmless" } };
    const verdict = await host.checkToolCall(call);
    call.args.text = "something else";
    await host.callTool(call, { skipPreToolCallHook: true });
    expect(countsFor("mutated")).toEqual([2, 2, 2]);
    expect(Object.isFrozen(verdict.args)).toBe(true);
    expect(executed).toEqual(["something else"]);
  });

  it("is ignored when the tool name changed after the check", async () => {
    await host.checkToolCall({ id: "renamed", name: "echo", args: { text: "a" } });
    await host.callTool({ id: "renamed", name: "slow", args: { text: "a" } }, { skipPreToolCallHook: true });
    expect(countsFor("renamed")).toEqual([2, 2, 2]);
  });

  it("serves one execution per check: a second run of the same call is gated again", async () => {
    const call = { id: "twice", name: "echo", args: { text: "a" } };
    await host.checkToolCall(call);
    await host.callTool(call, { skipPreToolCallHook: true });
    await host.callTool(call, { skipPreToolCallHook: true });
    expect(countsFor("twice")).toEqual([2, 2, 2]);
  });

  it("is not shared between hosts", async () => {
    const other = await createHost({ cwd: project.dir, tools, logger: false });
    const call = { id: "cross-host", name: "echo", args: { text: "a" } };
    await other.checkToolCall(call);
    await host.callTool(call, { skipPreToolCallHook: true });
    await other.close();
    expect(countsFor("cross-host")).toEqual([2, 2, 2]);
  });
});

describe("remembered verdicts are bounded in memory", () => {
  it("past about 32 MB of remembered arguments the oldest verdicts are dropped, and those calls are gated again", async () => {
    let checks = 0;
    const bounded = await createHost({
      pluginsDir: false,
      configFile: false,
      logger: false,
      tools,
      plugins: [{ name: "count", hooks: { pre_tool_call: () => void checks++ } }],
    });
    const text = "x".repeat(64 * 1024);
    // 600 unconsumed checks of 64 KB each is about 38 MB: more than the memo keeps.
    for (let index = 0; index < 600; index++) await bounded.checkToolCall({ id: `m${index}`, name: "echo", args: { text } });
    expect(checks).toBe(600);
    await bounded.callTool({ id: "m0", name: "echo", args: { text } }, { skipPreToolCallHook: true });
    expect(checks).toBe(601);
    await bounded.callTool({ id: "m599", name: "echo", args: { text } }, { skipPreToolCallHook: true });
    expect(checks).toBe(601);
    await bounded.close();
  });
});
