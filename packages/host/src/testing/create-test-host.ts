import type {
  HostEventName,
  HostEvents,
  PluginExport,
  PluginOptions,
  PluginRecord,
  SessionInfo,
  ToolArgs,
  ToolCall,
  ToolContext,
  ToolDefinition,
  ToolKind,
  ToolResult,
  Verdict,
} from "@toolgate/plugin-sdk";
import { createHost, type Host } from "../create-host.js";
import type { HostOptions, PluginEntry } from "../options.js";

/** A fake tool: records every call it receives; returns `returns` (or what `execute` gives). */
export type FakeTool = ToolDefinition | ((args: ToolArgs, ctx: ToolContext) => unknown) | { kind?: ToolKind; returns?: unknown };

export interface TestHostOptions {
  /** Options handed to the plugin (its factory, or `ctx.options`). */
  options?: PluginOptions;
  /** Tools the host offers: a list of names (each a fake tool returning `"<name>: ok"`) or a map of fakes. */
  tools?: readonly string[] | Record<string, FakeTool>;
  /** Other plugins to load beside the one under test. */
  plugins?: readonly (PluginExport | string | readonly [PluginExport | string, PluginOptions])[];
  session?: { id?: string; user?: string; [key: string]: unknown };
  /** Extra `createHost` options (`hookTimeoutMs`, `onHookError`, `onAsk`, `cwd`, …). */
  host?: Omit<HostOptions, "plugins" | "tools" | "session">;
}

export interface RecordedEvent<Name extends HostEventName = HostEventName> {
  type: Name;
  payload: HostEvents[Name];
}

export interface TestCallOutcome {
  result: ToolResult;
  /** The gate's verdict (before an `ask` was resolved by `onAsk`). */
  verdict: Verdict | undefined;
  /** The OpenAI Chat Completions message the model would receive. */
  message: { role: "tool"; tool_call_id: string; content: string };
  /** Whether the fake tool ran, and with which arguments. */
  executed: boolean;
  executedArgs: ToolArgs | undefined;
  /** Events emitted while this call ran. */
  events: RecordedEvent[];
}

export interface TestHost {
  /** The real host underneath. */
  readonly host: Host;
  /** The loaded plugins (check `status` and `error`). */
  readonly plugins: readonly PluginRecord[];
  /** Every event since the host was created. */
  readonly events: readonly RecordedEvent[];
  /** Every call the fake tools received, in order. */
  readonly executions: readonly { tool: string; args: ToolArgs }[];
  readonly session: SessionInfo | undefined;
  /** Sends one call through the production path (gate, then tool) and reports what happened. */
  call(name: string, args?: ToolArgs, extra?: { id?: string; kind?: ToolKind }): Promise<TestCallOutcome>;
  /** The gate only, as `host.checkToolCall`. */
  check(name: string, args?: ToolArgs): Promise<Verdict>;
  close(): Promise<void>;
}

/**
 * Loads a plugin (object, factory or file path) into a real host with fake tools, so a test exercises
 * exactly the code path production uses. Throws if the plugin under test fails to load, with the host's reason.
 */
export async function createTestHost(plugin: PluginExport | string, testOptions: TestHostOptions = {}): Promise<TestHost> {
  const executions: { tool: string; args: ToolArgs }[] = [];
  const events: RecordedEvent[] = [];
  const options = testOptions.options ?? {};
  const host = await createHost({
    pluginsDir: false,
    configFile: false,
    logger: false,
    ...testOptions.host,
    ...(testOptions.session ? { session: testOptions.session } : {}),
    plugins: [...(testOptions.plugins ?? []), [plugin, options]] as PluginEntry[],
    tools: fakeTools(testOptions.tools ?? [], executions),
  });
  host.events.on("*", (type, payload) => events.push({ type, payload } as RecordedEvent));
  const failed = host.plugins.filter((record) => record.status === "failed");
  if (failed.length > 0) {
    await host.close();
    throw new Error(`createTestHost: ${failed.map((record) => record.error).join("; ")}`);
  }
  let nextId = 0;
  return {
    host,
    plugins: host.plugins,
    events,
    executions,
    get session() {
      const start = events.find((event) => event.type === "session:start");
      return (start?.payload as HostEvents["session:start"] | undefined)?.session;
    },
    async call(name, args = {}, extra = {}) {
      const call: ToolCall = { id: extra.id ?? `call_${++nextId}`, name, args, ...(extra.kind ? { kind: extra.kind } : {}) };
      const firstEvent = events.length;
      const executedBefore = executions.length;
      const result = await host.callTool(call);
      const callEvents = events.slice(firstEvent);
      const end = callEvents.find((event) => event.type === "tool:end")?.payload as HostEvents["tool:end"] | undefined;
      const executed = executions.length > executedBefore;
      return {
        result,
        verdict: end?.verdict,
        message: { role: "tool", tool_call_id: result.callId, content: result.content },
        executed,
        executedArgs: executed ? executions[executions.length - 1]!.args : undefined,
        events: callEvents,
      };
    },
    check(name, args = {}) {
      return host.checkToolCall({ id: `check_${++nextId}`, name, args });
    },
    close: () => host.close(),
  };
}

function fakeTools(tools: readonly string[] | Record<string, FakeTool>, executions: { tool: string; args: ToolArgs }[]): Record<string, ToolDefinition> {
  const entries: [string, FakeTool][] = Array.isArray(tools) ? tools.map((name) => [name, {}]) : Object.entries(tools);
  return Object.fromEntries(entries.map(([name, fake]) => [name, recordingTool(name, fake, executions)]));
}

function recordingTool(name: string, fake: FakeTool, executions: { tool: string; args: ToolArgs }[]): ToolDefinition {
  const run = typeof fake === "function" ? fake : "execute" in fake ? fake.execute.bind(fake) : () => ("returns" in fake ? fake.returns : `${name}: ok`);
  const definition: ToolDefinition = {
    execute(args, ctx) {
      executions.push({ tool: name, args });
      return run(args, ctx);
    },
  };
  if (typeof fake !== "function" && fake.kind !== undefined) definition.kind = fake.kind;
  return definition;
}
