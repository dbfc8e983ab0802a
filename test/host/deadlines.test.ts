import { createHost, type Host, type Plugin, type ToolCall } from "@toolgate/host";
import { afterEach, describe, expect, it } from "vitest";

// One timer per host serves every pending hook: these check the semantics it must keep, on real time.

const hosts: Host[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});

async function hostWith(plugins: Plugin[], hookTimeoutMs: number): Promise<Host> {
  const host = await createHost({ pluginsDir: false, configFile: false, logger: false, tools: { act: { execute: () => "acted" } }, plugins, hookTimeoutMs });
  hosts.push(host);
  return host;
}

const calls = (count: number): ToolCall[] => Array.from({ length: count }, (_, index) => ({ id: `c${index}`, name: "act", args: {} }));

describe("hook deadlines", () => {
  it("every one of 64 concurrent hung hooks times out, no earlier than the timeout, each with its signal aborted", async () => {
    const signals: AbortSignal[] = [];
    const host = await hostWith([{ name: "hang", hooks: { pre_tool_call: (_c, ctx) => (signals.push(ctx.signal), new Promise(() => {})) } }], 40);
    const start = performance.now();
    const results = await host.callTools(calls(64), { concurrency: 64 });
    expect(performance.now() - start).toBeGreaterThanOrEqual(39);
    expect(results.every((result) => result.status === "blocked" && result.content.includes("timed out after 40 ms"))).toBe(true);
    expect(signals.filter((signal) => signal.aborted)).toHaveLength(64);
  });

  it("a hook that settles after its timeout changes nothing: the next plugin's later block still decides", async () => {
    const host = await createHost({
      pluginsDir: false,
      configFile: false,
      logger: false,
      tools: { act: { execute: () => "acted" } },
      hookTimeoutMs: 50,
      onHookError: "allow",
      plugins: [
        { name: "late", order: 1, hooks: { pre_tool_call: () => new Promise((resolve) => setTimeout(resolve, 75)) } },
        {
          name: "slow-blocker",
          order: 2,
          hooks: { pre_tool_call: () => new Promise((resolve) => setTimeout(() => resolve({ action: "block", message: "no" }), 40)) },
        },
      ],
    });
    hosts.push(host);
    const result = await host.callTool({ id: "c1", name: "act", args: {} });
    expect(result).toMatchObject({ status: "blocked", content: expect.stringContaining("no") });
  });

  it("the ctx of a hook that timed out (and was aborted) is never handed to a later call", async () => {
    const seen: { call: string; signal: AbortSignal }[] = [];
    const host = await hostWith(
      [
        {
          name: "hang-once",
          hooks: {
            pre_tool_call: (call, ctx) => {
              seen.push({ call: call.id, signal: ctx.signal });
              return call.id === "c0" ? new Promise(() => {}) : undefined;
            },
          },
        },
      ],
      30,
    );
    const [first, second, third] = calls(3);
    expect((await host.callTool(first!)).status).toBe("blocked");
    expect((await host.callTool(second!)).status).toBe("ok");
    expect((await host.callTool(third!)).status).toBe("ok");
    expect(seen.map((entry) => [entry.call, entry.signal.aborted])).toEqual([
      ["c0", true],
      ["c1", false],
      ["c2", false],
    ]);
  });

  it("a hook that settles well within its timeout is not cut off, also after earlier hooks timed out", async () => {
    let first = true;
    const host = await hostWith(
      [
        {
          name: "slowish",
          hooks: {
            pre_tool_call: () => {
              const delay = first ? 10_000 : 60;
              first = false;
              return new Promise((resolve) => setTimeout(resolve, delay));
            },
          },
        },
      ],
      200,
    );
    expect((await host.callTool({ id: "a", name: "act", args: {} })).status).toBe("blocked");
    expect((await host.callTool({ id: "b", name: "act", args: {} })).status).toBe("ok");
  });

  it("hooks started at different times each get their full timeout", async () => {
    const host = await hostWith([{ name: "hang", hooks: { pre_tool_call: () => new Promise(() => {}) } }], 60);
    const early = host.callTool({ id: "early", name: "act", args: {} });
    await new Promise((resolve) => setTimeout(resolve, 40));
    const lateStart = performance.now();
    const late = host.callTool({ id: "late", name: "act", args: {} });
    expect((await early).status).toBe("blocked");
    expect((await late).status).toBe("blocked");
    expect(performance.now() - lateStart).toBeGreaterThanOrEqual(59);
  });
});
