import { createHost, type Host, type HostOptions, type Plugin, type ToolCall } from "@toolgate/host";
import { afterEach, describe, expect, it } from "vitest";

// The policy loop runs synchronously until a hook returns a promise, then resumes at the next plugin.
// Each plugin after an async one must count exactly as it would after a sync one.

const hosts: Host[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});

const ran: Record<string, unknown>[] = [];
const tools = { act: { execute: (args: Record<string, unknown>) => (ran.push(args), "acted") } };
const call: ToolCall = { id: "c1", name: "act", args: { path: "a.txt" } };

async function hostWith(plugins: Plugin[], options: HostOptions = {}): Promise<Host> {
  ran.length = 0;
  const host = await createHost({ pluginsDir: false, configFile: false, logger: false, tools, plugins, ...options });
  hosts.push(host);
  return host;
}

type Style = "sync" | "async";
/** Plugin names sort in the order given, so the list is the run order. */
function plugin(index: number, style: Style, answer: (args: Record<string, unknown>) => unknown): Plugin {
  const name = `p${index}-${style}`;
  return {
    name,
    hooks: { pre_tool_call: style === "sync" ? (c) => answer(c.args) as never : async (c) => (await Promise.resolve(), answer(c.args) as never) },
  };
}
const none = () => undefined;
const block = (message: string) => () => ({ action: "block", message });

describe("one resumable policy loop", () => {
  it("an async plugin followed by a blocking plugin blocks", async () => {
    const host = await hostWith([plugin(1, "async", none), plugin(2, "sync", block("second says no"))]);
    const result = await host.callTool(call);
    expect(result).toMatchObject({ status: "blocked", blockedBy: "p2-sync" });
    expect(ran).toEqual([]);
  });

  it.each([
    ["async", "async"],
    ["sync", "async"],
    ["async", "sync"],
  ] as const)("%s then %s: a block after several async hooks still blocks", async (first, second) => {
    const host = await hostWith([plugin(1, first, none), plugin(2, second, none), plugin(3, "async", none), plugin(4, "sync", block("last"))]);
    expect(await host.checkToolCall(call)).toMatchObject({ action: "block", plugin: "p4-sync", message: "last" });
  });

  it("async → modify → block: the blocker judges the modified arguments", async () => {
    const host = await hostWith([
      plugin(1, "async", none),
      plugin(2, "async", () => ({ action: "modify", args: { path: "/etc/passwd" } })),
      plugin(3, "sync", (args) => (String(args.path).startsWith("/etc") ? { action: "block", message: "no /etc" } : undefined)),
    ]);
    expect(await host.callTool(call)).toMatchObject({ status: "blocked", blockedBy: "p3-sync" });
  });

  it("async → modify → async → modify: both rewrites reach the tool, in order", async () => {
    const host = await hostWith([
      plugin(1, "async", none),
      plugin(2, "async", () => ({ action: "modify", args: { path: "b", first: true } })),
      plugin(3, "async", (args) => ({ action: "modify", args: { path: `${String(args.path)}/c` } })),
      plugin(4, "sync", none),
    ]);
    expect((await host.callTool(call)).status).toBe("ok");
    expect(ran).toEqual([{ path: "b/c", first: true }]);
  });

  it("async → ask → sync allow: the ask still needs approval", async () => {
    const host = await hostWith([plugin(1, "async", () => ({ action: "ask", message: "sure?" })), plugin(2, "sync", () => ({ action: "allow" }))]);
    expect(await host.checkToolCall(call)).toMatchObject({ action: "ask", plugin: "p1-async" });
  });

  it("a failing hook after an async one fails closed", async () => {
    const host = await hostWith([
      plugin(1, "async", none),
      plugin(2, "sync", () => {
        throw new Error("late failure");
      }),
    ]);
    const result = await host.callTool(call);
    expect(result.status).toBe("blocked");
    expect(result.content).toContain("late failure");
  });

  it("every plugin runs once, in order, across sync and async hooks", async () => {
    const order: string[] = [];
    const styles: Style[] = ["sync", "async", "async", "sync", "sync", "async", "sync"];
    const host = await hostWith(styles.map((style, index) => plugin(index, style, () => void order.push(`p${index}`))));
    await host.callTool(call);
    expect(order).toEqual(styles.map((_, index) => `p${index}`));
  });
});
