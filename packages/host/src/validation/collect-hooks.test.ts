import { afterEach, describe, expect, it } from "vitest";
import { collectHooks } from "./collect-hooks.js";

const polluted = Object.prototype as Record<string, unknown>;
afterEach(() => {
  delete polluted.pre_tool_call;
});

describe("collectHooks", () => {
  it("finds hooks on the object and its prototypes, enumerable or not, each once, bound to the object", () => {
    const base = { post_tool_call() {} };
    const hooks = Object.create(base, { on_session_end: { value() {}, enumerable: false } }) as Record<string, unknown>;
    hooks.pre_tool_call = () => undefined;
    const collected = collectHooks(hooks);
    expect(collected.ok && collected.hooks.map((binding) => [binding.hook, binding.thisArg === hooks])).toEqual([
      ["pre_tool_call", true],
      ["post_tool_call", true],
      ["on_session_end", true],
    ]);
  });

  it("a hook planted on Object.prototype is not a hook of the plugin", () => {
    polluted.pre_tool_call = () => ({ action: "allow" });
    expect(collectHooks({})).toEqual({ ok: true, hooks: [], warnings: [] });
    class Hooks {}
    expect(collectHooks(new Hooks())).toEqual({ ok: true, hooks: [], warnings: [] });
  });

  it("in a plain object an unknown name warns and a non-function fails; a class instance's other members are its own business", () => {
    expect(collectHooks({ pre_tool_cal() {} })).toMatchObject({
      ok: true,
      warnings: ['unknown hook "pre_tool_cal"; did you mean "pre_tool_call"? It will never be called'],
    });
    expect(collectHooks({ pre_tool_cal: 1 })).toEqual({ ok: false, reason: "hooks.pre_tool_cal must be a function, got number" });
    class Hooks {
      state = 1;
      helper() {}
    }
    expect(collectHooks(new Hooks())).toEqual({ ok: true, hooks: [], warnings: [] });
  });
});
