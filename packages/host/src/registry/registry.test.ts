import type { PluginRecord } from "@toolgate/plugin-sdk";
import { describe, expect, it } from "vitest";
import type { PluginSnapshot } from "../validation/validate-plugin.js";
import { PluginRegistry, type RegisteredPlugin } from "./registry.js";

const silent = { debug() {}, info() {}, warn() {}, error() {} };

function registered(name: string, order = 0, path?: string): RegisteredPlugin {
  const plugin: PluginSnapshot = {
    name,
    version: undefined,
    description: undefined,
    order,
    hooks: [{ hook: "pre_tool_call", fn: () => undefined, thisArg: {} }],
    tools: {},
    explain: undefined,
  };
  const record: PluginRecord = { name, source: "inline", status: "loaded", warnings: [], ...(path ? { path } : {}) };
  return { plugin, options: {}, record, log: silent };
}

describe("PluginRegistry", () => {
  it("runs hooks in order, then name, also when plugins are added after the tables were first read", () => {
    const registry = new PluginRegistry();
    registry.add(registered("b"));
    registry.add(registered("c", -1));
    expect(registry.hooks("pre_tool_call").map((entry) => entry.plugin)).toEqual(["c", "b"]);
    registry.add(registered("a"));
    registry.add(registered("z", -5));
    expect(registry.hooks("pre_tool_call").map((entry) => entry.plugin)).toEqual(["z", "c", "a", "b"]);
    expect(registry.plugins.map((owner) => owner.plugin.name)).toEqual(["z", "c", "a", "b"]);
    expect(registry.hooks("post_tool_call")).toEqual([]);
  });

  it("rejects a second plugin with a taken name, naming both origins, and keeps the first", () => {
    const registry = new PluginRegistry();
    expect(registry.add(registered("twin", 0, "/p/a.ts"))).toBeUndefined();
    const error = registry.add(registered("twin", -1, "/p/b.ts"));
    expect(error?.code).toBe("PLUGIN_DUPLICATE");
    expect(error?.message).toBe('duplicate plugin name "twin": /p/b.ts conflicts with /p/a.ts, which loaded first');
    expect(registry.hooks("pre_tool_call").map((entry) => entry.path)).toEqual(["/p/a.ts"]);
  });
});
