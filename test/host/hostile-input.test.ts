import { createHost, isToolgateError, type Host, type HostOptions, type Plugin, type ToolCall } from "@toolgate/host";
import { afterEach, describe, expect, it } from "vitest";
import { recordEvents } from "../helpers/recorders.js";

// An attacker controls the model's tool calls, and a buggy or hostile plugin controls what its hooks
// return. Neither may get a call past the gate, crash it, or hang it.

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

/** A policy that blocks any call whose arguments mention "rm -rf", wherever in them. */
const scanner: Plugin = {
  name: "scanner",
  hooks: { pre_tool_call: (c) => (JSON.stringify(c.args).includes("rm -rf") ? { action: "block", message: "destructive" } : undefined) },
};

const throwingHandler: ProxyHandler<object> = {
  get: () => {
    throw new Error("trap: get");
  },
  has: () => {
    throw new Error("trap: has");
  },
  getPrototypeOf: () => {
    throw new Error("trap: getPrototypeOf");
  },
  ownKeys: () => {
    throw new Error("trap: ownKeys");
  },
  getOwnPropertyDescriptor: () => {
    throw new Error("trap: getOwnPropertyDescriptor");
  },
};
const throwingProxy = () => new Proxy({}, throwingHandler);
const errorWithThrowingMessage = () =>
  Object.defineProperty(new Error("hidden"), "message", {
    get() {
      throw new Error("message getter");
    },
  });

describe("arguments are data: __proto__ stays an own key", () => {
  const attack = () => JSON.parse('{"__proto__": {"command": "rm -rf /"}}') as Record<string, unknown>;

  it("a policy sees a __proto__ key in the call's args, and can block on it", async () => {
    let seen: Record<string, unknown> | undefined;
    const host = await hostWith([{ name: "peek", hooks: { pre_tool_call: (c) => void (seen = c.args as never) } }, scanner]);
    const result = await host.callTool({ id: "p1", name: "act", args: attack() });
    expect(result).toMatchObject({ status: "blocked", blockedBy: "scanner" });
    expect(Object.keys(seen!)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(seen)).toBe(Object.prototype);
    expect(ran).toEqual([]);
  });

  it("hooks and the tool see the same own __proto__ key, and no prototype", async () => {
    const seen: unknown[] = [];
    const host = await hostWith([{ name: "peek", hooks: { pre_tool_call: (c) => void seen.push(c.args) } }]);
    await host.callTool({ id: "p2", name: "act", args: JSON.parse('{"__proto__": {"x": 1}, "y": 2}') });
    const [args] = ran;
    expect(Object.hasOwn(args!, "__proto__")).toBe(true);
    expect((args as { x?: unknown }).x).toBeUndefined();
    expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
    expect(JSON.stringify(args)).toBe(JSON.stringify(seen[0]));
  });

  it("a modify that sets __proto__ stays an own key for later hooks and the tool", async () => {
    const host = await hostWith([
      { name: "a-rewrite", hooks: { pre_tool_call: () => ({ action: "modify", args: JSON.parse('{"__proto__": {"command": "rm -rf /"}}') }) } },
      { ...scanner, name: "b-scanner" },
    ]);
    expect(await host.callTool({ id: "p3", name: "act", args: {} })).toMatchObject({ status: "blocked", blockedBy: "b-scanner" });
    const open = await hostWith([{ name: "rewrite", hooks: { pre_tool_call: () => ({ action: "modify", args: JSON.parse('{"__proto__": {"x": 1}}') }) } }]);
    await open.callTool({ id: "p4", name: "act", args: { y: 2 } });
    expect(Object.keys(ran[0]!)).toEqual(["y", "__proto__"]);
    expect(Object.getPrototypeOf(ran[0])).toBe(Object.prototype);
  });
});

describe("the call the hooks judged is the call that runs", () => {
  it("arguments that answer differently on a second read run as first read", async () => {
    const host = await hostWith([scanner]);
    let reads = 0;
    const args = {
      get command() {
        return reads++ === 0 ? "ls" : "rm -rf /";
      },
    };
    expect((await host.callTool({ id: "g1", name: "act", args })).status).toBe("ok");
    expect(ran).toEqual([{ command: "ls" }]);
    expect(reads).toBe(1);
  });

  it("with nested arguments too, every getter is read once, at any depth", async () => {
    const host = await hostWith([scanner]);
    let reads = 0;
    const flip = () => (reads++ < 2 ? "ls" : "rm -rf /");
    const args = {
      get top() {
        return flip();
      },
      nested: {
        get deep() {
          return flip();
        },
      },
    };
    expect((await host.callTool({ id: "g0", name: "act", args })).status).toBe("ok");
    expect(ran).toEqual([{ top: "ls", nested: { deep: "ls" } }]);
    expect(reads).toBe(2);
  });

  it("a call whose args getter answers differently on a second read runs on the snapshot", async () => {
    const host = await hostWith([scanner]);
    let reads = 0;
    const call = {
      id: "g2",
      name: "act",
      get args() {
        return reads++ === 0 ? { command: "ls" } : { command: "rm -rf /" };
      },
    };
    expect((await host.callTool(call)).status).toBe("ok");
    expect(ran).toEqual([{ command: "ls" }]);
  });

  it("a call whose name changes on a second read is judged and run under its first name", async () => {
    const seen: string[] = [];
    const host = await hostWith([{ name: "names", hooks: { pre_tool_call: (c) => void seen.push(c.name) } }]);
    let reads = 0;
    const call = {
      id: "g3",
      get name() {
        return reads++ === 0 ? "act" : "other";
      },
      args: {},
    };
    const result = await host.callTool(call);
    expect(result).toMatchObject({ status: "ok", name: "act" });
    expect(seen).toEqual(["act"]);
  });

  it("a skipPreToolCallHook call whose kind differs from the checked one is gated again", async () => {
    let checks = 0;
    const host = await hostWith([{ name: "kinds", hooks: { pre_tool_call: (c) => void (checks++, c.kind) } }]);
    const checked: ToolCall = { id: "k1", name: "act", args: {}, kind: "function" };
    await host.checkToolCall(checked);
    await host.callTool({ ...checked, kind: "shell" }, { skipPreToolCallHook: true });
    expect(checks).toBe(2);
    await host.checkToolCall({ ...checked, id: "k2" });
    await host.callTool({ ...checked, id: "k2" }, { skipPreToolCallHook: true });
    expect(checks).toBe(3);
  });
});

describe("hostile hook results fail closed", () => {
  const cases: [string, () => unknown][] = [
    [
      "a thenable whose then getter throws",
      () => ({
        // biome-ignore lint/suspicious/noThenProperty: a hostile thenable is the point
        get then(): never {
          throw new Error("then getter");
        },
      }),
    ],
    [
      "a thenable whose then appears only on a second read",
      () => {
        let reads = 0;
        return {
          // biome-ignore lint/suspicious/noThenProperty: a hostile thenable is the point
          get then() {
            return reads++ === 0 ? undefined : () => {};
          },
        };
      },
    ],
    [
      "a thenable whose then throws when called",
      () => ({
        // biome-ignore lint/suspicious/noThenProperty: a hostile thenable is the point
        then: () => {
          throw new Error("then call");
        },
      }),
    ],
    ["a Proxy that throws on any access", throwingProxy],
    ["a promise of a Proxy that throws on any access", () => Promise.resolve().then(() => throwingProxy())],
    ["a promise that rejects with a Proxy", () => Promise.reject(throwingProxy())],
    [
      "a block whose message getter throws",
      () => ({
        action: "block",
        get message(): never {
          throw new Error("getter");
        },
      }),
    ],
    [
      "a modify with cyclic args",
      () => {
        const args: Record<string, unknown> = {};
        args.self = args;
        return { action: "modify", args };
      },
    ],
  ];

  it.each(cases)("%s: blocked with hook:error, never rejected, never hung", async (_, hostile) => {
    const host = await hostWith([{ name: "hostile", hooks: { pre_tool_call: () => hostile() as never } }]);
    const events = recordEvents(host.events);
    const result = await host.callTool({ id: "h1", name: "act", args: {} });
    expect(result).toMatchObject({ status: "blocked", blockedBy: "hostile" });
    expect(ran).toEqual([]);
    expect(events.filter((event) => event.type === "hook:error")).toHaveLength(1);
  });

  it.each([
    ["an Error whose message getter throws", errorWithThrowingMessage],
    ["a Proxy", throwingProxy],
    ["null", () => null],
  ])("a hook that throws %s is blocked with hook:error", async (_, thrown) => {
    const host = await hostWith([
      {
        name: "thrower",
        hooks: {
          pre_tool_call() {
            throw thrown();
          },
        },
      },
    ]);
    const events = recordEvents(host.events);
    expect(await host.callTool({ id: "h2", name: "act", args: {} })).toMatchObject({ status: "blocked", blockedBy: "thrower" });
    expect(events.filter((event) => event.type === "hook:error")).toHaveLength(1);
  });

  it("observer hooks fail open on hostile values, and the failure is reported", async () => {
    const host = await hostWith([
      {
        name: "a-observer",
        hooks: {
          post_tool_call: (() => ({
            // biome-ignore lint/suspicious/noThenProperty: a hostile thenable is the point
            get then(): never {
              throw new Error("observer then");
            },
          })) as never,
        },
      },
      {
        name: "b-observer",
        hooks: {
          post_tool_call() {
            throw throwingProxy();
          },
        },
      },
    ]);
    const events = recordEvents(host.events);
    expect((await host.callTool({ id: "h3", name: "act", args: {} })).status).toBe("ok");
    expect(events.filter((event) => event.type === "hook:error").map((event) => event.payload.plugin)).toEqual(["a-observer", "b-observer"]);
  });
});

describe("hostile tools", () => {
  const hostWithTool = (execute: () => unknown) => hostWith([], { tools: { weird: { execute } } });

  it.each([
    ["a Proxy", throwingProxy],
    ["an Error whose message getter throws", errorWithThrowingMessage],
  ])("a tool that throws %s yields status error", async (_, thrown) => {
    const host = await hostWithTool(() => {
      throw thrown();
    });
    const result = await host.callTool({ id: "t1", name: "weird", args: {} });
    expect(result.status).toBe("error");
    expect(result.content).toContain('Tool "weird" failed');
  });

  it("a tool returning a thenable whose then getter throws yields status error", async () => {
    const host = await hostWithTool(() => ({
      // biome-ignore lint/suspicious/noThenProperty: a hostile thenable is the point
      get then(): never {
        throw new Error("tool then");
      },
    }));
    expect(await host.callTool({ id: "t2", name: "weird", args: {} })).toMatchObject({ status: "error" });
  });

  // A promise's `then` builds the promise it returns through `constructor[Symbol.species]`: a tool that
  // picks the species must not hand the caller a promise of its own making, one that never settles.
  function NeverSettles(this: object, executor: (resolve: () => void, reject: () => void) => void) {
    executor(
      () => {},
      () => {},
    );
  }
  class PromiseWithHostileSpecies<T> extends Promise<T> {
    static override get [Symbol.species]() {
      return NeverSettles as unknown as PromiseConstructor;
    }
  }
  it.each([
    [
      "a promise whose own constructor names a hostile species",
      () => Object.defineProperty(Promise.resolve("out"), "constructor", { value: { [Symbol.species]: NeverSettles } }),
    ],
    ["a Promise subclass with a hostile species", () => PromiseWithHostileSpecies.resolve("out")],
  ])("a tool returning %s still gives its output", async (_, output) => {
    const host = await hostWithTool(output);
    expect(await host.callTool({ id: "t5", name: "weird", args: {} })).toMatchObject({ status: "ok", content: "out" });
  });

  it("a tool returning a Proxy that passes for a promise yields status error, and ends once", async () => {
    const host = await hostWithTool(() => new Proxy(Promise.resolve("out"), {}));
    const events = recordEvents(host.events);
    const result = await host.callTool({ id: "t6", name: "weird", args: {} });
    expect(result.status).toBe("error");
    await new Promise((resolve) => setImmediate(resolve));
    expect(events.filter((event) => event.type === "tool:end")).toHaveLength(1);
  });

  it("output that JSON cannot write (a cycle, a BigInt) still gives text content", async () => {
    const cyclic: Record<string, unknown> = { name: "loop", big: 10n };
    cyclic.self = cyclic;
    const host = await hostWithTool(() => cyclic);
    const result = await host.callTool({ id: "t3", name: "weird", args: {} });
    expect(result.status).toBe("ok");
    expect(JSON.parse(result.content)).toEqual({ name: "loop", big: "10", self: "[Circular]" });
  });

  it("output that cannot be read at all yields status error, not a rejection", async () => {
    const host = await hostWithTool(() => throwingProxy());
    const result = await host.callTool({ id: "t4", name: "weird", args: {} });
    expect(result.status).toBe("error");
    expect(typeof result.content).toBe("string");
  });
});

describe("pathological calls are rejected up front, naming args", () => {
  const deep = () => {
    let value: Record<string, unknown> = {};
    for (let level = 0; level < 100_000; level++) value = { d: value };
    return value;
  };
  const cyclic = () => {
    const args: Record<string, unknown> = { list: [] };
    (args.list as unknown[]).push(args);
    return args;
  };

  it.each([
    ["nested 100,000 deep", deep],
    ["cyclic", cyclic],
  ])("args %s: every entry rejects with INVALID_CALL naming args, and no hook runs", async (_, args) => {
    let hooks = 0;
    const host = await hostWith([{ name: "count", hooks: { pre_tool_call: () => void hooks++ } }]);
    const call = { id: "x1", name: "act", args: args() };
    for (const attempt of [host.callTool(call), host.checkToolCall(call), host.explainToolCall(call), host.callTools([call])]) {
      const error = await attempt.then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(isToolgateError(error) && error.code).toBe("INVALID_CALL");
      expect(String((error as Error).message)).toMatch(/\bargs\b/);
    }
    expect(hooks).toBe(0);
    expect(ran).toEqual([]);
  });

  it("a batch with one pathological call runs none of its calls", async () => {
    const host = await hostWith([]);
    const good = { id: "ok", name: "act", args: {} };
    await expect(host.callTools([good, { id: "bad", name: "act", args: cyclic() }])).rejects.toThrow(/tool call \[1\].*args/);
    expect(ran).toEqual([]);
  });

  it("a call whose fields throw on read is rejected naming the field", async () => {
    const host = await hostWith([]);
    const call = {
      id: "r1",
      name: "act",
      get args(): never {
        throw new Error("no args for you");
      },
    };
    await expect(host.callTool(call)).rejects.toThrow(/args could not be read/);
    await expect(host.callTool(throwingProxy() as never)).rejects.toThrow(/INVALID|could not be read|must be an object/);
  });
});
