import { createHost, isToolgateError, type Host, type HostOptions, type Plugin, type ToolCall } from "@toolgate/host";
import { hookNames } from "@toolgate/plugin-sdk/host";
import { afterEach, describe, expect, it } from "vitest";
import { recordEvents } from "../helpers/recorders.js";

const hosts: Host[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});

const executed: string[] = [];
const tools = {
  read: { execute: (args: Record<string, unknown>) => (executed.push(`read:${String(args.path)}`), `contents of ${String(args.path)}`) },
  stat: { execute: (args: Record<string, unknown>) => (executed.push("stat"), { size: 42, path: args.path }) },
  fail: {
    execute() {
      executed.push("fail");
      throw new Error("disk on fire");
    },
  },
};

const blockSecrets: Plugin = {
  name: "no-secrets",
  hooks: { pre_tool_call: (call) => (String(call.args.path).includes("secret") ? { action: "block", message: "secrets stay secret" } : undefined) },
};

async function hostWith(plugins: Plugin[], options: HostOptions = {}): Promise<Host> {
  executed.length = 0;
  const host = await createHost({ pluginsDir: false, configFile: false, logger: false, tools, plugins, ...options });
  hosts.push(host);
  return host;
}

describe("a blocked call has no side effects", () => {
  it("no executor, no post_tool_call, no tool:before/after; one tool:blocked and one tool:end", async () => {
    const post: string[] = [];
    const host = await hostWith([
      blockSecrets,
      { name: "observer", hooks: { post_tool_call: (call, result) => void post.push(`${call.id}:${result.status}`) } },
    ]);
    const events = recordEvents(host.events);
    const result = await host.callTool({ id: "b", name: "read", args: { path: "secret.txt" } });
    expect(result).toEqual({
      callId: "b",
      name: "read",
      status: "blocked",
      content: 'Tool call blocked by plugin "no-secrets": secrets stay secret',
      blockedBy: "no-secrets",
    });
    expect(executed).toEqual([]);
    expect(post).toEqual([]);
    expect(events.map((event) => event.type)).toEqual(["decision", "tool:blocked", "tool:end"]);
    expect(events[2]!.payload).toMatchObject({ status: "blocked", verdict: { action: "block", plugin: "no-secrets" } });
  });

  it("an allowed call: tool:before, executor, post_tool_call, tool:after, tool:end", async () => {
    const order: string[] = [];
    const observer: Plugin = { name: "observer", hooks: { post_tool_call: () => void order.push("post_tool_call") } };
    const host = await hostWith([observer], { tools: { read: { execute: () => void order.push("execute") } } });
    host.events.on("tool:before", () => order.push("tool:before"));
    host.events.on("tool:after", () => order.push("tool:after"));
    host.events.on("tool:end", ({ status }) => order.push(`tool:end:${status}`));
    await host.callTool({ id: "a", name: "read", args: { path: "a.txt" } });
    expect(order).toEqual(["tool:before", "execute", "post_tool_call", "tool:after", "tool:end:ok"]);
  });
});

describe("results", () => {
  it("a string return is the content; any other value is data with JSON content", async () => {
    const host = await hostWith([]);
    expect(await host.callTool({ id: "1", name: "read", args: { path: "x" } })).toEqual({ callId: "1", name: "read", status: "ok", content: "contents of x" });
    expect(await host.callTool({ id: "2", name: "stat", args: { path: "x" } })).toEqual({
      callId: "2",
      name: "stat",
      status: "ok",
      content: '{"size":42,"path":"x"}',
      data: { size: 42, path: "x" },
    });
  });

  it("a tool that throws yields status error with its message, and post_tool_call sees it", async () => {
    const post: unknown[] = [];
    const host = await hostWith([{ name: "observer", hooks: { post_tool_call: (_call, result) => void post.push(result.status) } }]);
    const result = await host.callTool({ id: "f", name: "fail", args: {} });
    expect(result.status).toBe("error");
    expect(result.content).toContain("disk on fire");
    expect(post).toEqual(["error"]);
  });

  it("an unknown tool yields status error naming the tool, and the known ones", async () => {
    const host = await hostWith([]);
    const result = await host.callTool({ id: "u", name: "teleport", args: {} });
    expect(result.status).toBe("error");
    expect(result.content).toContain('"teleport"');
    expect(result.content).toContain("read");
  });
});

describe("malformed calls are rejected with an error naming the field, and nothing runs", () => {
  it.each([
    [{ id: 7, name: "read", args: {} }, "id"],
    [{ id: null, name: "read", args: {} }, "id"],
    [{ id: "", name: "read", args: {} }, "id"],
    [{ id: "x", args: {} }, "name"],
    [{ id: "x", name: "read", args: [] }, "args"],
    [{ id: "x", name: "read", args: "path=a" }, "args"],
    [{ id: "x", name: "read" }, "args"],
    ["read a.txt", "object"],
  ])("%j → names %s", async (call, field) => {
    let hookRan = false;
    const host = await hostWith([{ name: "spy", hooks: { pre_tool_call: () => void (hookRan = true) } }]);
    const error = await host.callTool(call as unknown as ToolCall).catch((thrown: unknown) => thrown);
    expect(isToolgateError(error)).toBe(true);
    expect((error as Error).message).toContain(field);
    expect(hookRan).toBe(false);
    expect(executed).toEqual([]);
  });

  it("one malformed call rejects the whole batch before anything runs, naming its index", async () => {
    const host = await hostWith([]);
    const batch = [
      { id: "1", name: "read", args: { path: "a" } },
      { id: "2", name: "read", args: null },
    ] as unknown as ToolCall[];
    await expect(host.callTools(batch)).rejects.toThrow(/tool call \[1\].*args/);
    expect(executed).toEqual([]);
  });

  it("a batch with a repeated call id is rejected before anything runs", async () => {
    const host = await hostWith([]);
    const call = { id: "same", name: "read", args: { path: "a" } };
    await expect(host.callTools([call, { ...call }])).rejects.toThrow(/repeats the id "same"/);
    expect(executed).toEqual([]);
  });
});

describe("batches", () => {
  it.each([1, 3])("every call in a mixed batch gets exactly one result, in input order (concurrency %i)", async (concurrency) => {
    const host = await hostWith([blockSecrets]);
    const events = recordEvents(host.events);
    const batch: ToolCall[] = [
      { id: "c1", name: "read", args: { path: "a" } },
      { id: "c2", name: "read", args: { path: "secret" } },
      { id: "c3", name: "fail", args: {} },
      { id: "c4", name: "nope", args: {} },
      { id: "c5", name: "stat", args: { path: "b" } },
      { id: "c6", name: "fail", args: { path: "secret" } },
    ];
    const results = await host.callTools(batch, { concurrency });
    expect(results.map((result) => [result.callId, result.status])).toEqual([
      ["c1", "ok"],
      ["c2", "blocked"],
      ["c3", "error"],
      ["c4", "error"],
      ["c5", "ok"],
      ["c6", "blocked"],
    ]);
    const ends = events.filter((event) => event.type === "tool:end").map((event) => event.payload.call.id);
    expect(ends.sort()).toEqual(["c1", "c2", "c3", "c4", "c5", "c6"]);
    expect(executed.sort()).toEqual(["fail", "read:a", "stat"]);
  });

  it("rejects a concurrency below 1", async () => {
    const host = await hostWith([]);
    await expect(host.callTools([{ id: "1", name: "read", args: {} }], { concurrency: 0 })).rejects.toThrow(/concurrency/);
  });
});

describe("session lifecycle", () => {
  it("on_session_start fires once before createHost resolves; on_session_end on close, once", async () => {
    const seen: string[] = [];
    const plugin: Plugin = {
      name: "lifecycle",
      hooks: { on_session_start: (ctx) => void seen.push(`start:${ctx.session.id}`), on_session_end: (ctx) => void seen.push(`end:${ctx.session.id}`) },
    };
    const host = await hostWith([plugin], { session: { id: "s1" } });
    expect(seen).toEqual(["start:s1"]);
    await Promise.all([host.close(), host.close()]);
    expect(seen).toEqual(["start:s1", "end:s1"]);
  });

  it("a closed host refuses calls with a clear error", async () => {
    const host = await hostWith([]);
    await host.close();
    await expect(host.callTool({ id: "1", name: "read", args: {} })).rejects.toThrow(/closed/);
    await expect(host.callTools([])).rejects.toThrow(/closed/);
    await expect(host.checkToolCall({ id: "1", name: "read", args: {} })).rejects.toThrow(/closed/);
  });
});

it("every hook name in the public types is invoked by the host", async () => {
  const invoked = new Set<string>();
  const hooks = Object.fromEntries(hookNames.map((name) => [name, () => void invoked.add(name)]));
  const host = await hostWith([{ name: "all-hooks", hooks }]);
  await host.callTool({ id: "1", name: "read", args: { path: "a" } });
  await host.close();
  expect(hookNames.length).toBeGreaterThanOrEqual(4);
  expect([...invoked].sort()).toEqual([...hookNames].sort());
});

it("a listener that throws does not break the call or other listeners", async () => {
  const host = await hostWith([]);
  const seen: string[] = [];
  host.events.on("tool:end", () => {
    throw new Error("bad listener");
  });
  host.events.on("tool:end", ({ status }) => seen.push(status));
  expect((await host.callTool({ id: "1", name: "read", args: { path: "a" } })).status).toBe("ok");
  expect(seen).toEqual(["ok"]);
});
