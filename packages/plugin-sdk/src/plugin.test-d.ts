import { describe, expectTypeOf, it } from "vitest";
import { hookNames } from "./host.js";
import {
  definePlugin,
  type HookContext,
  type HookName,
  type Plugin,
  type PluginApi,
  type PluginFactory,
  type PreToolCallResult,
  type ToolCall,
  type ToolDefinition,
  type ToolKind,
  type ToolResult,
} from "./index.js";

describe("definePlugin infers every hook's parameters without annotations", () => {
  it("object form", () => {
    const plugin = definePlugin({
      name: "typed",
      hooks: {
        pre_tool_call(call, ctx) {
          expectTypeOf(call).toEqualTypeOf<ToolCall>();
          expectTypeOf(ctx.signal).toEqualTypeOf<AbortSignal>();
          return { action: "block", message: "no" };
        },
        post_tool_call(call, result) {
          expectTypeOf(call.args).toEqualTypeOf<Readonly<Record<string, unknown>>>();
          expectTypeOf(result).toEqualTypeOf<ToolResult>();
        },
        on_session_start(ctx) {
          expectTypeOf(ctx.session.id).toEqualTypeOf<string>();
        },
      },
    });
    expectTypeOf(plugin).toMatchTypeOf<Plugin>();
  });

  it("factory form: options typed from the factory's parameter, visible in ctx.options", () => {
    const factory = definePlugin((options: { max: number }, api) => {
      expectTypeOf(api).toEqualTypeOf<PluginApi>();
      expectTypeOf(api.on("tool:end", (payload) => expectTypeOf(payload.status).toEqualTypeOf<ToolResult["status"]>())).toEqualTypeOf<() => void>();
      return {
        name: "limited",
        hooks: {
          pre_tool_call(_call, ctx: HookContext<{ max: number }>) {
            expectTypeOf(ctx.options.max).toEqualTypeOf<number>();
            return options.max > 1 ? undefined : { action: "allow" };
          },
        },
      };
    });
    expectTypeOf(factory).toEqualTypeOf<PluginFactory<{ max: number }>>();
  });

  it("rejects results that are not in the contract", () => {
    // @ts-expect-error "deny" is not an action
    definePlugin({ name: "bad", hooks: { pre_tool_call: () => ({ action: "deny", message: "x" }) } });
    // @ts-expect-error modify needs args
    definePlugin({ name: "bad-modify", hooks: { pre_tool_call: () => ({ action: "modify" }) } });
  });

  it("a plugin without a name does not compile", () => {
    // @ts-expect-error name is required
    definePlugin({ hooks: {} });
  });

  it("unknown hook names do not compile (the host also warns at run time)", () => {
    // @ts-expect-error pre_tool_cal is not a hook
    definePlugin({ name: "typo", hooks: { pre_tool_cal() {} } });
  });
});

it("hookNames lists exactly the HookName union", () => {
  expectTypeOf(hookNames).toEqualTypeOf<HookName[]>();
  expectTypeOf<HookName>().toEqualTypeOf<"pre_tool_call" | "post_tool_call" | "on_session_start" | "on_session_end">();
  expectTypeOf<PreToolCallResult>().toMatchTypeOf<void | undefined | { action: string }>();
});

describe("ToolCall, ToolDefinition and Plugin's fields are inferred from the host's schemas", () => {
  it("ToolCall is read-only, with an optional kind", () => {
    expectTypeOf<ToolCall>().toEqualTypeOf<{
      readonly id: string;
      readonly name: string;
      readonly args: Readonly<Record<string, unknown>>;
      readonly kind?: ToolKind | undefined;
    }>();
  });

  it("ToolDefinition's execute may declare narrower arguments; a non-function does not compile", () => {
    const tool: ToolDefinition = { description: "reads", execute: (args: { path: string }) => args.path };
    expectTypeOf(tool.execute).parameter(0).toEqualTypeOf<Record<string, unknown>>();
    // @ts-expect-error execute must be a function
    const broken: ToolDefinition = { execute: "run" };
    expectTypeOf(broken).toEqualTypeOf<ToolDefinition>();
  });

  it("Plugin's plain fields are typed by the schema", () => {
    expectTypeOf<Plugin["order"]>().toEqualTypeOf<number | undefined>();
    // @ts-expect-error version is a string
    definePlugin({ name: "v", version: 2 });
  });
});
