import { createHost, hostEventNames, isToolgateError, type HostEventListeners, type HostEvents, type Plugin } from "@toolgate/host";
import { describe, expect, it } from "vitest";

const tools = { act: { execute: () => "acted" } };

describe("events", () => {
  it("createHost({ on }) sees every event the contract names, from plugin loading to session end", async () => {
    const seen: { type: keyof HostEvents; payload: any }[] = [];
    const on = Object.fromEntries(hostEventNames.map((type) => [type, (payload: unknown) => seen.push({ type, payload })])) as HostEventListeners;
    const policy: Plugin = {
      name: "policy",
      hooks: {
        pre_tool_call(call) {
          if (call.id === "blocked") return { action: "block", message: "no" };
          if (call.id === "invalid") return "nonsense" as never;
          if (call.id === "slow") return new Promise(() => {});
          return undefined;
        },
      },
    };
    const host = await createHost({
      pluginsDir: false,
      configFile: false,
      logger: false,
      tools,
      hookTimeoutMs: 30,
      plugins: [policy, { description: "no name" } as never],
      // The invalid plugin is here for plugin:error; the calls below are the policy's to decide.
      onPluginError: "allow",
      on,
    });
    expect(seen.map((event) => event.type)).toEqual(["plugin:loaded", "plugin:error", "session:start"]);
    expect(seen[0]!.payload.plugin).toMatchObject({ name: "policy", status: "loaded" });

    await host.callTool({ id: "ok", name: "act", args: {} });
    await host.callTool({ id: "blocked", name: "act", args: {} });
    await host.callTool({ id: "invalid", name: "act", args: {} });
    await host.callTool({ id: "slow", name: "act", args: {} });
    await host.close();

    const types = new Set(seen.map((event) => event.type));
    expect([...hostEventNames].filter((name) => !types.has(name))).toEqual([]);
    expect(seen.find((event) => event.type === "tool:blocked")!.payload).toMatchObject({ plugin: "policy", call: { id: "blocked" } });
    expect(seen.find((event) => event.type === "hook:timeout")!.payload).toMatchObject({ plugin: "policy", timeoutMs: 30 });
    expect(seen.filter((event) => event.type === "tool:end")).toHaveLength(4);
    expect(seen.at(-1)!.type).toBe("session:end");
  });

  it("host.events lets an app subscribe and unsubscribe, never emit", async () => {
    const host = await createHost({ pluginsDir: false, configFile: false, logger: false, tools });
    expect((host.events as unknown as { emit?: unknown }).emit).toBeUndefined();
    expect(Object.isFrozen(host.events)).toBe(true);
    const ends: string[] = [];
    const listener = (payload: HostEvents["tool:end"]) => ends.push(payload.call.id);
    host.events.on("tool:end", listener);
    await host.callTool({ id: "one", name: "act", args: {} });
    host.events.off("tool:end", listener);
    await host.callTool({ id: "two", name: "act", args: {} });
    expect(ends).toEqual(["one"]);
    await host.close();
  });

  it("createHost({ on }) rejects an unknown event name and a listener that is not a function", async () => {
    for (const on of [{ "tool:done": () => {} }, { "tool:end": "log" }]) {
      const error = await createHost({ pluginsDir: false, configFile: false, logger: false, on: on as never }).catch((thrown: unknown) => thrown);
      expect(isToolgateError(error) && error.code).toBe("INVALID_OPTIONS");
      expect(String((error as Error).message)).toMatch(/on\.tool:(done is not an event name|end must be a listener function)/);
    }
  });
});
