import { createHost, toolMessageFormats, toToolMessage, type Host, type HostLogger, type HostOptions, type PluginRecord } from "@toolgate/host";
import type { HostEvents, PluginApi, PluginOptions } from "@toolgate/plugin-sdk";
import { afterEach, describe, expect, it } from "vitest";

const hosts: Host[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});

async function open(options: HostOptions): Promise<Host> {
  const host = await createHost({ logger: false, pluginsDir: false, configFile: false, ...options });
  hosts.push(host);
  return host;
}

/** A factory hands the host any value at all, as a module's default export could. */
const exporting = (value: unknown) => () => value as never;
const terminal = { terminal: { execute: () => "ran" } };
const call = (id = "1") => ({ id, name: "terminal", args: { command: "rm -rf /" } });
const blockAll = { pre_tool_call: () => ({ action: "block", message: "no" }) as const };

describe("hooks that exist run, wherever the plugin keeps them", () => {
  it("class instance hooks run, with the instance as `this`", async () => {
    class Guard {
      blocked = 0;
      pre_tool_call() {
        this.blocked += 1;
        return { action: "block" as const, message: `blocked ${this.blocked}` };
      }
    }
    const hooks = new Guard();
    const host = await open({ tools: terminal, plugins: [exporting({ name: "class-hooks", hooks })] });
    expect(host.plugins[0]).toMatchObject({ status: "loaded", warnings: [] });
    expect(await host.callTool(call())).toMatchObject({ status: "blocked", content: expect.stringContaining("blocked 1") });
    expect(hooks.blocked).toBe(1);
  });

  it("inherited hooks (Object.create, a subclass) run", async () => {
    const base = { pre_tool_call: () => ({ action: "block", message: "from the prototype" }) };
    class Base {
      pre_tool_call() {
        return { action: "block" as const, message: "from the base class" };
      }
    }
    class Derived extends Base {}
    const host = await open({
      tools: terminal,
      plugins: [exporting({ name: "proto", order: 1, hooks: Object.create(base) }), exporting({ name: "subclass", order: 2, hooks: new Derived() })],
    });
    const counts: string[] = [];
    host.events.on("tool:blocked", ({ verdict }) => counts.push(verdict.message ?? ""));
    expect(await host.callTool(call())).toMatchObject({ status: "blocked", blockedBy: "proto" });
    // The second plugin's hook ran too: blocking it alone blocks the call.
    const onlyDerived = await open({ tools: terminal, plugins: [exporting({ name: "subclass", hooks: new Derived() })] });
    expect(await onlyDerived.callTool(call())).toMatchObject({ status: "blocked", content: expect.stringContaining("from the base class") });
  });

  it("non-enumerable hooks run", async () => {
    const hooks = {};
    Object.defineProperty(hooks, "pre_tool_call", { value: blockAll.pre_tool_call, enumerable: false });
    const host = await open({ tools: terminal, plugins: [exporting({ name: "hidden", hooks })] });
    expect(await host.callTool(call())).toMatchObject({ status: "blocked", blockedBy: "hidden" });
  });

  it("a class may hold state and helpers besides hooks; only the hook names are hooks there", async () => {
    class Hooks {
      limit = 3;
      describe() {
        return "helper";
      }
      pre_tool_call() {
        return { action: "block" as const, message: `${this.describe()} ${this.limit}` };
      }
    }
    const host = await open({ tools: terminal, plugins: [exporting({ name: "stateful", hooks: new Hooks() })] });
    expect(host.plugins[0]).toMatchObject({ status: "loaded", warnings: [] });
    expect((await host.callTool(call())).content).toContain("helper 3");
  });

  it("a hook name that is present but not a function fails to load, naming it", async () => {
    class Broken {
      get pre_tool_call() {
        return "not a function";
      }
    }
    const host = await open({ plugins: [exporting({ name: "broken", hooks: new Broken() })] });
    expect(host.plugins[0]).toMatchObject({ status: "failed" });
    expect(host.plugins[0]?.error).toMatch(/not a valid plugin: hooks\.pre_tool_call must be a function, got string/);
  });

  it.each([
    ["null", null, "null"],
    ["an array", [blockAll.pre_tool_call], "an array"],
    ["a function", Object.assign(() => {}, blockAll), "function"],
  ])("hooks as %s fails to load with a clear error", async (_, hooks, got) => {
    const host = await open({ plugins: [exporting({ name: "odd-hooks", hooks })] });
    expect(host.plugins[0]?.status).toBe("failed");
    expect(host.plugins[0]?.error).toContain(`hooks must be an object of hook functions, got ${got}`);
  });
});

describe("a plugin object that fights back at load fails alone; the host starts", () => {
  const boom = () => {
    throw new Error("boom from a getter");
  };

  it.each(["name", "version", "description", "order", "hooks", "tools"])("a `%s` getter that throws", async (field) => {
    const hostile = Object.defineProperty({ name: "hostile", hooks: {} }, field, { get: boom, enumerable: true });
    // onPluginError "allow": the healthy plugin decides alone (by default every call would be blocked for the failure).
    const host = await open({ tools: terminal, onPluginError: "allow", plugins: [exporting(hostile), { name: "healthy", hooks: blockAll }] });
    expect(host.plugins[0]).toMatchObject({ status: "failed" });
    expect(host.plugins[0]?.error).toBe(`inline plugin #1: not a valid plugin: reading ${field} threw: boom from a getter`);
    expect(host.plugins[1]).toMatchObject({ name: "healthy", status: "loaded" });
    expect(await host.callTool(call())).toMatchObject({ status: "blocked", blockedBy: "healthy" });
  });

  it("getters inside hooks and tools that throw", async () => {
    const hooks = Object.defineProperty({}, "pre_tool_call", { get: boom, enumerable: true });
    const tool = Object.defineProperty({}, "execute", { get: boom, enumerable: true });
    const host = await open({ plugins: [exporting({ name: "a", hooks }), exporting({ name: "b", tools: { t: tool } })] });
    expect(host.plugins.map((record) => record.error)).toEqual([
      "inline plugin #1: not a valid plugin: reading hooks.pre_tool_call threw: boom from a getter",
      "inline plugin #2: not a valid plugin: reading tools.t.execute threw: boom from a getter",
    ]);
  });

  it("a Proxy whose every trap throws, and one that throws a Proxy", async () => {
    const trap = () => {
      throw new Error("trapped");
    };
    const everyTrap = new Proxy({}, { get: trap, getPrototypeOf: trap, ownKeys: trap, getOwnPropertyDescriptor: trap, has: trap });
    const throwsProxy = new Proxy(
      {},
      {
        get() {
          throw everyTrap;
        },
      },
    );
    const hooksProxy = new Proxy({}, { getOwnPropertyDescriptor: trap, getPrototypeOf: trap });
    const host = await open({
      tools: terminal,
      onPluginError: "allow",
      plugins: [
        exporting(everyTrap),
        exporting(throwsProxy),
        exporting({ name: "proxy-hooks", hooks: hooksProxy }),
        exporting({ name: "proxy-tools", tools: new Proxy({}, { ownKeys: trap }) }),
        { name: "healthy", hooks: blockAll },
      ],
    });
    expect(host.plugins.map((record) => record.status)).toEqual(["failed", "failed", "failed", "failed", "loaded"]);
    expect(host.plugins[3]?.error).toContain("reading tools threw: trapped");
    // Where it throws first depends on who reads first (the hook runner checks for `then`); it fails either way.
    expect(host.plugins[0]?.error).toContain("trapped");
    expect(host.plugins[2]?.error).toContain("reading hooks threw: trapped");
    expect(await host.callTool(call())).toMatchObject({ status: "blocked", blockedBy: "healthy" });
  });

  it("each field is read once: a getter that answers differently later changes nothing", async () => {
    const reads: Record<string, number> = {};
    const counted = <T>(field: string, values: T[]) => ({
      get: () => values[Math.min((reads[field] = (reads[field] ?? 0) + 1) - 1, values.length - 1)],
      enumerable: true,
    });
    const allow = () => undefined;
    const plugin = Object.defineProperties(
      {},
      {
        name: counted("name", ["first-name", "second-name"]),
        order: counted("order", [1, -100]),
        hooks: counted("hooks", [{ pre_tool_call: () => ({ action: "block", message: "first hooks" }) }, { pre_tool_call: allow }]),
        tools: counted("tools", [{ terminal: { execute: () => "first tool" } }, { terminal: { execute: () => "second tool" } }]),
      },
    );
    const host = await open({ plugins: [exporting(plugin)] });
    expect(host.plugins[0]).toMatchObject({ name: "first-name", status: "loaded" });
    expect(await host.callTool(call("1"))).toMatchObject({ status: "blocked", content: expect.stringContaining("first hooks") });
    expect(await host.callTool(call("2"))).toMatchObject({ status: "blocked", content: expect.stringContaining("first hooks") });
    expect(reads).toEqual({ name: 1, order: 1, hooks: 1, tools: 1 });
  });

  it("a hook reached through a getter is read once, at load", async () => {
    let reads = 0;
    const hooks = {
      get pre_tool_call() {
        reads += 1;
        return reads === 1 ? blockAll.pre_tool_call : () => undefined;
      },
    };
    const host = await open({ tools: terminal, plugins: [exporting({ name: "getter-hook", hooks })] });
    for (const id of ["1", "2", "3"]) expect(await host.callTool(call(id))).toMatchObject({ status: "blocked" });
    expect(reads).toBe(1);
  });

  it("a tool's execute keeps its own object as `this`", async () => {
    class Search {
      prefix = "found";
      execute() {
        return `${this.prefix} it`;
      }
    }
    const host = await open({ plugins: [exporting({ name: "tools", tools: { search: new Search() } })] });
    expect(await host.callTool({ id: "1", name: "search", args: {} })).toMatchObject({ status: "ok", content: "found it" });
  });

  it("tools must be a plain object of definitions", async () => {
    class Tools {
      search = { execute: () => "x" };
    }
    const host = await open({ plugins: [exporting({ name: "class-tools", tools: new Tools() })] });
    expect(host.plugins[0]?.error).toContain("tools must be a plain object (tool name → definition), got an object with a prototype");
  });
});

describe("factories run through the hook runner", () => {
  it("a factory that returns a thenable whose `then` throws fails that plugin; the host starts", async () => {
    const hostileThenable = {
      // biome-ignore lint/suspicious/noThenProperty: a hostile thenable is the point
      then() {
        throw new Error("then exploded");
      },
    };
    const host = await open({ tools: terminal, plugins: [() => hostileThenable as never, { name: "healthy", hooks: blockAll }] });
    expect(host.plugins.map((record) => record.status)).toEqual(["failed", "loaded"]);
    expect(host.plugins[0]?.error).toContain("then exploded");
  });

  it("a factory that throws a non-Error value fails with its text", async () => {
    const host = await open({
      plugins: [
        () => {
          throw "no config";
        },
      ],
    });
    expect(host.plugins[0]?.error).toBe("inline plugin #1: the plugin factory failed: no config");
  });
});

describe("api.on: listeners go live only once the plugin is registered", () => {
  type Heard = { event: keyof HostEvents; by: string }[];
  const listening = (name: string, heard: Heard, result: (api: PluginApi) => unknown) => (_: PluginOptions, api: PluginApi) => {
    for (const event of ["plugin:loaded", "plugin:error", "tool:end", "session:start"] as const) api.on(event, () => heard.push({ event, by: name }));
    return result(api) as never;
  };

  it("a plugin that fails validation or registration never hears an event", async () => {
    const heard: Heard = [];
    const host = await open({
      tools: terminal,
      plugins: [
        listening("registered", heard, () => ({ name: "twin", hooks: {} })),
        listening("invalid", heard, () => ({ name: 42 })),
        listening("duplicate", heard, () => ({ name: "twin", hooks: {} })),
      ],
    });
    expect(host.plugins.map((record: PluginRecord) => record.status)).toEqual(["loaded", "failed", "failed"]);
    await host.callTool(call());
    expect(new Set(heard.map((entry) => entry.by))).toEqual(new Set(["registered"]));
    // The registered plugin heard its own load, both failures, the session and the call.
    expect(heard.map((entry) => entry.event)).toEqual(["plugin:loaded", "plugin:error", "plugin:error", "session:start", "tool:end"]);
  });

  it("on returns an unsubscribe, before and after registration; calling it twice is harmless", async () => {
    const heard: string[] = [];
    let api: PluginApi | undefined;
    let early: (() => void) | undefined;
    const host = await open({
      tools: terminal,
      plugins: [
        (_options, given) => {
          api = given;
          early = given.on("tool:end", () => heard.push("early"));
          early();
          given.on("tool:end", () => heard.push("kept"));
          return { name: "subscriber" };
        },
      ],
    });
    const late = api!.on("tool:end", () => heard.push("late"));
    await host.callTool(call("1"));
    late();
    late();
    early!();
    await host.callTool(call("2"));
    expect(heard).toEqual(["kept", "late", "kept"]);
  });
});

describe("what plugins and tools hand back reaches the model and the log intact and harmless", () => {
  it("tool results that cannot be serialised give a valid message in every format", async () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const values = [
      cyclic,
      { count: 10n },
      10n,
      {
        toJSON: () => {
          throw new Error("nope");
        },
      },
    ];
    const tools = Object.fromEntries(values.map((value, index) => [`t${index}`, { execute: () => value }]));
    const host = await open({ tools });
    for (const name of Object.keys(tools)) {
      const result = await host.callTool({ id: name, name, args: {} });
      expect(result.status).toBe("ok");
      expect(typeof result.content).toBe("string");
      for (const format of toolMessageFormats) expect(() => JSON.parse(JSON.stringify(toToolMessage(result, format)))).not.toThrow();
    }
  });

  it("a logger the app supplies gets plugin names and messages with control characters escaped", async () => {
    const lines: string[] = [];
    // A class instance (pino, winston) is a logger too.
    class AppLogger implements HostLogger {
      debug = (message: string) => void lines.push(message);
      info = (message: string) => void lines.push(message);
      warn = (message: string) => void lines.push(message);
      error = (message: string) => void lines.push(message);
    }
    await open({
      logger: new AppLogger(),
      plugins: [
        (_options, api) => {
          api.log.info("line one\n[app] forged \x1b[2J");
          return { name: "bad\x1b[31m", hooks: { pre_tool_cal() {} } };
        },
        () => {
          throw new Error("factory \r\u202e failed");
        },
      ],
    });
    expect(lines).toEqual([
      "[inline plugin #1] line one\\n[app] forged \\x1b[2J",
      'plugin "bad\\x1b[31m": unknown hook "pre_tool_cal"; did you mean "pre_tool_call"? It will never be called',
      'plugin "inline plugin #2" failed to load: inline plugin #2: the plugin factory failed: factory \\r\\u202e failed',
      'a plugin failed to load: every tool call is blocked until the plugins load (onPluginError: "block")',
    ]);
  });
});
