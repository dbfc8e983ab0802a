import { describe, expect, it } from "vitest";
import { hookNames, hookRoles, isHookName } from "./host.js";
import { definePlugin } from "./index.js";

describe("definePlugin", () => {
  it("returns the plugin object or factory unchanged", () => {
    const plugin = { name: "same" };
    const factory = () => plugin;
    expect(definePlugin(plugin)).toBe(plugin);
    expect(definePlugin(factory)).toBe(factory);
  });

  it.each([
    [{}, /non-empty string `name`/],
    [{ name: "  " }, /non-empty string `name`/],
    [null, /takes a plugin object or a factory/],
  ])("rejects %j with a clear message", (value, message) => {
    expect(() => definePlugin(value as never)).toThrow(message);
  });
});

describe("hook names", () => {
  it("every hook has a role; policy hooks are the ones that decide", () => {
    expect(hookNames).toEqual(["pre_tool_call", "post_tool_call", "on_session_start", "on_session_end"]);
    expect(
      Object.entries(hookRoles)
        .filter(([, role]) => role === "policy")
        .map(([name]) => name),
    ).toEqual(["pre_tool_call"]);
    expect(isHookName("pre_tool_call")).toBe(true);
    expect(isHookName("pre_tool_cal")).toBe(false);
    expect(isHookName("toString")).toBe(false);
  });
});
