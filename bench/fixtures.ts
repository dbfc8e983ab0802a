import { createHost, type HookContext, type Hooks, type Host, type Plugin, type ToolCall } from "@toolgate/host";

/** A `pre_tool_call` hook as plugins write it. */
export type PreToolCallHook = NonNullable<Hooks["pre_tool_call"]>;

/** Whether every hook returns at once (`pre_tool_call() {}`) or through a promise (`async pre_tool_call() {}`). */
export type HookStyle = "sync" | "async";

/** The call every measurement makes: a small, realistic argument object, reused so no call is allocated per iteration. */
export const benchCall: ToolCall = { id: "call-1", name: "noop", args: { path: "README.md", recursive: false } };

/** `count` inline plugins whose `pre_tool_call` passes (returns nothing). Names sort in creation order. */
export function passingPlugins(count: number, style: HookStyle): Plugin[] {
  return Array.from({ length: count }, (_, index) => ({
    name: `pass-${String(index).padStart(3, "0")}`,
    hooks: style === "sync" ? { pre_tool_call() {} } : { async pre_tool_call() {} },
  }));
}

/** The hook functions of `plugins`, in plugin order: what a hand-written loop would call. */
export function preToolCallHooks(plugins: readonly Plugin[]): PreToolCallHook[] {
  return plugins.map((plugin) => {
    const hook = plugin.hooks?.pre_tool_call;
    if (!hook) throw new Error(`plugin "${plugin.name}" has no pre_tool_call`);
    return hook;
  });
}

/** A real host with only these plugins and a no-op `noop` tool: no folder discovery, no config file, no logging. */
export function createBenchHost(plugins: readonly Plugin[]): Promise<Host> {
  return createHost({
    plugins: [...plugins],
    pluginsDir: false,
    configFile: false,
    logger: false,
    tools: { noop: { execute() {} } },
  });
}

const silentLog = { debug() {}, info() {}, warn() {}, error() {} };

/**
 * The baseline: what someone would write without toolgate. One context object built up front and
 * shared by every hook, no timeout, no frozen view, no result checks: the cheapest honest loop.
 */
export function createHandLoop(hooks: readonly PreToolCallHook[]): (call: ToolCall) => Promise<void> {
  const ctx: HookContext = { plugin: "hand-loop", session: { id: "bench" }, signal: new AbortController().signal, options: {}, log: silentLog };
  return async (call) => {
    for (const hook of hooks) await hook(call, ctx);
  };
}

/** The hand loop followed by the tool, as a baseline for `host.callTool`. */
export function createHandLoopWithTool(hooks: readonly PreToolCallHook[], execute: (args: ToolCall["args"]) => unknown): (call: ToolCall) => Promise<void> {
  const loop = createHandLoop(hooks);
  return async (call) => {
    await loop(call);
    await execute({ ...call.args });
  };
}
