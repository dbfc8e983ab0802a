import { createHost, type Host, type HostOptions, type Plugin, type ToolCall } from "@toolgate/host";
import { afterEach, describe, expect, it, vi } from "vitest";
import { recordEvents } from "../helpers/recorders.js";

const hosts: Host[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});

const ran: Record<string, unknown>[] = [];
const tools = { act: { execute: (args: Record<string, unknown>) => (ran.push(args), "acted") } };

async function hostWith(plugins: Plugin[], options: HostOptions = {}): Promise<Host> {
  ran.length = 0;
  const host = await createHost({ pluginsDir: false, configFile: false, logger: false, tools, plugins, ...options });
  hosts.push(host);
  return host;
}

const returning = (name: string, value: unknown, order?: number): Plugin => ({
  name,
  ...(order === undefined ? {} : { order }),
  hooks: { pre_tool_call: () => value as never },
});

const call: ToolCall = { id: "c1", name: "act", args: { path: "a.txt", mode: "fast" } };

describe("block directives", () => {
  it("a valid block stops the call and the model gets the message verbatim, naming the plugin", async () => {
    const host = await hostWith([returning("guard", { action: "block", message: "blocked by plugin" })]);
    const result = await host.callTool(call);
    expect(result).toMatchObject({ callId: "c1", name: "act", status: "blocked", blockedBy: "guard" });
    expect(result.content).toContain("blocked by plugin");
    expect(result.content).toContain('"guard"');
    expect(ran).toEqual([]);
  });

  it.each([
    ["a string", "block"],
    ["a number", 123],
    ["no message", { action: "block" }],
    ["an unknown action", { action: "deny", message: "nope" }],
    ["no action", { message: "x" }],
    ["a non-string message", { action: "block", message: 123 }],
    ["an empty message", { action: "block", message: "" }],
    ["null", null],
    ["an array", [{ action: "block", message: "x" }]],
    ["modify without args object", { action: "modify", args: "x" }],
  ])("%s is ignored as no opinion and reported through hook:invalid", async (_, value) => {
    const host = await hostWith([returning("sloppy", value)]);
    const events = recordEvents(host.events);
    const result = await host.callTool(call);
    expect(result.status).toBe("ok");
    expect(ran).toHaveLength(1);
    const invalid = events.filter((event) => event.type === "hook:invalid");
    expect(invalid).toHaveLength(1);
    expect(invalid[0]!.payload).toMatchObject({ plugin: "sloppy", hook: "pre_tool_call", value });
  });

  it("warns once per plugin about invalid results, naming the plugin", async () => {
    const warn = vi.fn();
    const host = await hostWith([returning("sloppy", "block")], { logger: { debug() {}, info() {}, warn, error() {} } });
    await host.callTool(call);
    await host.callTool({ ...call, id: "c2" });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).toContain('plugin "sloppy"');
  });

  it("with no plugins there is no block and no error", async () => {
    const host = await hostWith([]);
    expect(await host.checkToolCall(call)).toEqual({ action: "allow", args: call.args });
  });
});

describe("aggregation: block > ask > allow", () => {
  it("the first valid block in plugin order supplies the message", async () => {
    const host = await hostWith([
      returning("a-allow", { action: "allow" }),
      returning("b-first", { action: "block", message: "first blocker" }),
      returning("c-second", { action: "block", message: "second blocker" }),
    ]);
    expect(await host.checkToolCall(call)).toMatchObject({ action: "block", message: "first blocker", plugin: "b-first" });
  });

  it("plugin order is `order` first, then name, whatever the registration order", async () => {
    const host = await hostWith([
      returning("zeta", { action: "block", message: "zeta" }, -1),
      returning("alpha", { action: "block", message: "alpha" }),
      returning("early", { action: "block", message: "early" }, -1),
    ]);
    expect((await host.checkToolCall(call)).plugin).toBe("early");
  });

  it("a block wins over an allow from any plugin, before or after it", async () => {
    for (const plugins of [
      [returning("a", { action: "allow" }), returning("b", { action: "block", message: "no" })],
      [returning("a", { action: "block", message: "no" }), returning("b", { action: "allow" })],
    ]) {
      const host = await hostWith(plugins);
      expect((await host.checkToolCall(call)).action).toBe("block");
    }
  });

  it("allow, ask and block together give block with the block's reason", async () => {
    const host = await hostWith([
      returning("a", { action: "allow", reason: "fine" }),
      returning("b", { action: "ask", message: "sure?" }),
      returning("c", { action: "block", message: "denied" }),
    ]);
    expect(await host.checkToolCall(call)).toMatchObject({ action: "block", message: "denied", plugin: "c" });
  });

  it("ask beats allow; without onAsk the call is blocked and does not run", async () => {
    const host = await hostWith([returning("a", { action: "allow" }), returning("b", { action: "ask", message: "needs a human" })]);
    expect(await host.checkToolCall(call)).toMatchObject({ action: "ask", message: "needs a human", plugin: "b" });
    const result = await host.callTool({ ...call, id: "c2" });
    expect(result).toMatchObject({ status: "blocked", blockedBy: "b" });
    expect(result.content).toContain("needs a human");
    expect(ran).toEqual([]);
  });

  it("onAsk decides an ask: approved runs the tool, declined blocks it", async () => {
    const onAsk = vi.fn(async (_call: ToolCall, message: string) => message === "approve me");
    const approve = await hostWith([returning("asker", { action: "ask", message: "approve me" })], { onAsk });
    expect((await approve.callTool(call)).status).toBe("ok");
    expect(onAsk).toHaveBeenCalledWith(expect.objectContaining({ id: "c1", name: "act" }), "approve me");
    const decline = await hostWith([returning("asker", { action: "ask", message: "decline me" })], { onAsk });
    expect(await decline.callTool(call)).toMatchObject({ status: "blocked", blockedBy: "asker" });
    expect(ran).toEqual([]);
  });

  it("an onAsk that throws blocks the call (fail closed)", async () => {
    const host = await hostWith([returning("asker", { action: "ask", message: "?" })], {
      onAsk: () => {
        throw new Error("approver offline");
      },
    });
    const result = await host.callTool(call);
    expect(result.status).toBe("blocked");
    expect(result.content).toContain("approver offline");
  });

  it("an explicit allow is reported with its plugin and reason", async () => {
    const host = await hostWith([returning("ok", { action: "allow", reason: "trusted user" })]);
    expect(await host.checkToolCall(call)).toMatchObject({ action: "allow", plugin: "ok", message: "trusted user" });
  });
});

describe("modify", () => {
  it("merges shallowly in plugin order: later wins per key, untouched keys stay, undefined removes", async () => {
    const host = await hostWith([
      returning("a", { action: "modify", args: { path: "safe/a.txt", extra: 1 } }),
      returning("b", { action: "modify", args: { extra: 2, mode: undefined } }),
    ]);
    await host.callTool(call);
    expect(ran).toEqual([{ path: "safe/a.txt", extra: 2 }]);
  });

  it("later hooks see the merged arguments, and an empty answer keeps the rewrite", async () => {
    const seen: unknown[] = [];
    const host = await hostWith([
      returning("a", { action: "modify", args: { path: "rewritten" } }),
      { name: "b", hooks: { pre_tool_call: (c) => void seen.push(c.args) } },
      returning("c", undefined),
    ]);
    const verdict = await host.checkToolCall(call);
    expect(seen).toEqual([{ path: "rewritten", mode: "fast" }]);
    expect(verdict).toMatchObject({ action: "allow", args: { path: "rewritten", mode: "fast" } });
  });

  it("a later plugin can block on the rewritten arguments", async () => {
    const host = await hostWith([
      returning("a-rewrite", { action: "modify", args: { path: "/etc/passwd" } }),
      { name: "b-guard", hooks: { pre_tool_call: (c) => (String(c.args.path).startsWith("/etc") ? { action: "block", message: "no /etc" } : undefined) } },
    ]);
    expect(await host.callTool(call)).toMatchObject({ status: "blocked", blockedBy: "b-guard" });
  });

  it("the call a hook receives is frozen, deeply, and the caller's object is untouched", async () => {
    const errors: string[] = [];
    const mutate = (target: Record<string, unknown>, key: string) => {
      try {
        target[key] = "changed";
      } catch (error) {
        errors.push((error as Error).constructor.name);
      }
    };
    const host = await hostWith([
      {
        name: "vandal",
        hooks: {
          pre_tool_call(c) {
            mutate(c as never, "name");
            mutate(c.args as never, "path");
            mutate((c.args as { nested: Record<string, unknown> }).nested, "deep");
          },
        },
      },
    ]);
    const mine = { id: "m", name: "act", args: { path: "a", nested: { deep: "original" } } };
    await host.callTool(mine);
    expect(errors).toEqual(["TypeError", "TypeError", "TypeError"]);
    expect(mine).toEqual({ id: "m", name: "act", args: { path: "a", nested: { deep: "original" } } });
    expect(ran).toEqual([{ path: "a", nested: { deep: "original" } }]);
  });
});

describe("failures of pre_tool_call fail closed", () => {
  const thrower: Plugin = {
    name: "thrower",
    hooks: {
      pre_tool_call() {
        throw new Error("policy store unreachable");
      },
    },
  };
  const rejecter: Plugin = { name: "rejecter", hooks: { pre_tool_call: async () => Promise.reject(new Error("async boom")) } };

  it.each([
    [thrower, "policy store unreachable"],
    [rejecter, "async boom"],
  ])("%# a hook that throws or rejects blocks the call, naming the plugin and the failure", async (plugin, reason) => {
    const host = await hostWith([plugin]);
    const events = recordEvents(host.events);
    const result = await host.callTool(call);
    expect(result).toMatchObject({ status: "blocked", blockedBy: plugin.name });
    expect(result.content).toContain(reason);
    expect(result.content).toContain(`"${plugin.name}"`);
    expect(ran).toEqual([]);
    expect(events.filter((event) => event.type === "hook:error")).toHaveLength(1);
  });

  it("a hook past its timeout blocks the call, and its ctx.signal fires", async () => {
    let signal: AbortSignal | undefined;
    const host = await hostWith([{ name: "sleepy", hooks: { pre_tool_call: (_c, ctx) => ((signal = ctx.signal), new Promise(() => {})) } }], {
      hookTimeoutMs: 30,
    });
    const events = recordEvents(host.events);
    const result = await host.callTool(call);
    expect(result.status).toBe("blocked");
    expect(result.content).toMatch(/sleepy.*timed out after 30 ms/);
    expect(signal?.aborted).toBe(true);
    expect(events.map((event) => event.type)).toEqual(expect.arrayContaining(["hook:timeout", "hook:error", "tool:blocked", "tool:end"]));
  });

  it('onHookError: "allow" makes failures fail open, still reported', async () => {
    const host = await hostWith([thrower], { onHookError: "allow" });
    const events = recordEvents(host.events);
    expect((await host.callTool(call)).status).toBe("ok");
    expect(events.some((event) => event.type === "hook:error")).toBe(true);
  });

  it("host.close() aborts a hook still running and the call is blocked", async () => {
    let signal: AbortSignal | undefined;
    const host = await hostWith([{ name: "hang", hooks: { pre_tool_call: (_c, ctx) => ((signal = ctx.signal), new Promise(() => {})) } }], {
      hookTimeoutMs: 60_000,
    });
    const pending = host.callTool(call);
    await new Promise((resolve) => setTimeout(resolve, 10));
    await host.close();
    const result = await pending;
    expect(result.status).toBe("blocked");
    expect(result.content).toContain("host closed");
    expect(signal?.aborted).toBe(true);
  });

  it("observer hooks fail open: a throwing post_tool_call is reported and the next plugin still runs", async () => {
    const after: string[] = [];
    const host = await hostWith([
      { name: "a", hooks: { post_tool_call: () => Promise.reject(new Error("observer down")) } },
      { name: "b", hooks: { post_tool_call: (c) => void after.push(c.id) } },
    ]);
    const events = recordEvents(host.events);
    expect((await host.callTool(call)).status).toBe("ok");
    expect(after).toEqual(["c1"]);
    expect(events.find((event) => event.type === "hook:error")?.payload).toMatchObject({ plugin: "a", hook: "post_tool_call" });
  });
});

describe("hook context", () => {
  it("carries the session, the plugin's options, a logger and a signal", async () => {
    let seen: any;
    const host = await hostWith([], {
      session: { id: "s-1", user: "ada", team: "core" },
      plugins: [[{ name: "ctx", hooks: { pre_tool_call: (_c, ctx) => void (seen = ctx) } }, { level: 3 }]],
    });
    await host.callTool(call);
    expect(seen.session).toMatchObject({ id: "s-1", user: "ada", team: "core" });
    expect(seen.options).toEqual({ level: 3 });
    expect(seen.plugin).toBe("ctx");
    expect(typeof seen.log.warn).toBe("function");
    expect(seen.signal).toBeInstanceOf(AbortSignal);
  });

  it("generates a session id when none is given", async () => {
    const host = await hostWith([]);
    expect(host.session.id).toMatch(/^[0-9a-f-]{36}$/);
  });
});
