import type { PluginRecord, SessionInfo, ToolCall, ToolResult, Verdict } from "@toolgate/plugin-sdk";
import { discoverFolderPlugins } from "./discovery/folder.js";
import { resolvePluginEntries } from "./discovery/packages.js";
import { createEventBus, type HostEmitter } from "./events.js";
import { createToolCaller, type CallToolOptions } from "./execution/call-tool.js";
import type { CallToolsOptions } from "./execution/call-tools.js";
import { DecisionMemo } from "./gate/decision-memo.js";
import { createGate } from "./gate/decide.js";
import type { HookRuntime } from "./gate/run-hook.js";
import { runObservers } from "./gate/run-observers.js";
import { loadPlugins } from "./loading/load-plugins.js";
import { resolveHostLogger } from "./logger.js";
import type { HostOptions } from "./options.js";
import { PluginRegistry } from "./registry/registry.js";
import { resolveSettings, type HostSettings } from "./settings.js";
import type { PluginSource } from "./discovery/plugin-source.js";

export interface Host {
  /** Every plugin found, in discovery order, loaded or failed. */
  readonly plugins: readonly PluginRecord[];
  /** The typed event emitter (mitt). Listeners observe; they cannot change a decision. */
  readonly events: HostEmitter;
  readonly session: SessionInfo;
  /** The config file in use, if any. */
  readonly configPath: string | undefined;
  /** Names of the tools the host can run: the agent's and the plugins'. */
  readonly toolNames: readonly string[];
  /** Gate + execute one call. Tool failures come back as `status: "error"` results; a malformed call rejects. */
  callTool(call: ToolCall, options?: CallToolOptions): Promise<ToolResult>;
  /** Gate + execute a batch: one result per call, in input order. */
  callTools(calls: readonly ToolCall[], options?: CallToolsOptions): Promise<ToolResult[]>;
  /** Gate only, for hosts that run tools themselves. Follow with `callTool(call, { skipPreToolCallHook: true })`. */
  checkToolCall(call: ToolCall): Promise<Verdict>;
  /**
   * For hosts that run tools themselves (after `checkToolCall`): runs every plugin's `post_tool_call`
   * with the call and its result. Observers fail open, so this resolves even when one of them fails.
   */
  postToolCall(call: ToolCall, result: ToolResult): Promise<void>;
  /** Runs `on_session_end`, aborts hooks still running and refuses further calls. */
  close(): Promise<void>;
}

/** Finds, loads and validates the plugins, runs `on_session_start`, and returns a ready host. */
export async function createHost(options: HostOptions = {}): Promise<Host> {
  const settings = await resolveSettings(options);
  const logger = resolveHostLogger(options.logger);
  const events = createEventBus(logger);
  const registry = new PluginRegistry(options.tools);
  const runtime: HookRuntime = { timeoutMs: settings.hookTimeoutMs, inFlight: new Set() };
  const closeController = new AbortController();
  const { session } = settings;
  const shared = { registry, runtime, events, logger, session };

  const plugins = await loadPlugins(await collectSources(settings), { ...shared, cwd: settings.cwd, timeoutMs: settings.hookTimeoutMs });
  const gate = createGate({ ...shared, onHookError: settings.onHookError });
  const caller = createToolCaller({
    ...shared,
    gate,
    memo: new DecisionMemo(),
    onAsk: options.onAsk,
    closeSignal: closeController.signal,
  });

  events.emit("session:start", { session });
  await runObservers(shared, "on_session_start", []);

  let closing: Promise<void> | undefined;
  const close = async () => {
    closeController.abort(new Error("host closed"));
    for (const hook of [...runtime.inFlight]) hook.abort("host closed");
    await runObservers(shared, "on_session_end", []);
    events.emit("session:end", { session });
  };

  return {
    plugins,
    events: events.emitter,
    session,
    configPath: settings.configPath,
    get toolNames() {
      return registry.toolNames;
    },
    callTool: caller.callTool,
    checkToolCall: caller.checkToolCall,
    callTools: caller.callTools,
    postToolCall: async (call, result) => {
      if (closeController.signal.aborted) throw new Error("the host is closed; create a new one to run more tool calls");
      await runObservers(shared, "post_tool_call", [call, result]);
    },
    close: () => (closing ??= close()),
  };
}

async function collectSources(settings: HostSettings): Promise<PluginSource[]> {
  const fromFolder = settings.pluginsDir === false ? [] : await discoverFolderPlugins(settings.pluginsDir);
  const fromLists = settings.pluginLists.flatMap(({ entries, baseDir }) => resolvePluginEntries(entries, settings.cwd, baseDir));
  return [...fromFolder, ...fromLists];
}
