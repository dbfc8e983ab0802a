import type { PluginRecord, SessionInfo, ToolCall, ToolResult, Verdict } from "@toolgate/plugin-sdk";
import { discoverFolderPlugins } from "./discovery/folder.js";
import { resolvePluginEntries } from "./discovery/packages.js";
import { DecisionLog } from "./decisions/decision-log.js";
import { DecisionRecorder } from "./decisions/decision-recorder.js";
import { policyDigest } from "./decisions/policy-digest.js";
import { createEventBus, type HostEmitter } from "./events.js";
import { createToolCaller, type CallSessionOptions, type CallToolOptions, type CheckToolCallOptions, type ToolCallInput } from "./execution/call-tool.js";
import type { CallToolsOptions } from "./execution/call-tools.js";
import { createGate } from "./gate/decide.js";
import type { ToolCallExplanation } from "./gate/explain.js";
import { HookDeadlines } from "./invocation/hook-deadlines.js";
import { guardLogger, type HostRuntime } from "./host-runtime.js";
import { runObservers } from "./gate/run-observers.js";
import { loadPlugins } from "./loading/load-plugins.js";
import { type HostLogger, resolveHostLogger } from "./logger.js";
import { pluginFailureOf } from "./gate/plugin-failure.js";
import type { HostOptions } from "./options.js";
import { installPolicies } from "./policies/install-policies.js";
import { type Denial, DenialLog } from "./policies/denials.js";
import { PluginRegistry } from "./registry/registry.js";
import { policyPathsOf } from "./protection/policy-home.js";
import { PolicyProtection } from "./protection/policy-protection.js";
import { resolveSettings, type HostSettings } from "./settings.js";
import { withLocalWrites } from "./store/local-writes-store.js";
import { openStore } from "./store/open-store.js";
import { ReservationLedger } from "./store/reservations.js";
import type { PluginSource } from "./discovery/plugin-source.js";

export interface Host {
  /**
   * Every plugin found, in discovery order, loaded or failed. While one has failed, every call is blocked
   * with its error, unless `onPluginError` is `"allow"`.
   */
  readonly plugins: readonly PluginRecord[];
  /** What a plugin that failed to load means for calls, as configured: `"block"` blocks every call with its error. */
  readonly onPluginError: "block" | "allow";
  /**
   * Subscribe (`on`) and unsubscribe (`off`) to host events; only the host emits. Listeners observe;
   * they cannot change a decision. For events during `createHost` (plugin:loaded, plugin:error,
   * session:start), pass listeners as `createHost({ on })`.
   */
  readonly events: HostEmitter;
  readonly session: SessionInfo;
  /** The config file in use, if any. */
  readonly configPath: string | undefined;
  /** Names of the tools the host can run: the agent's and the plugins'. */
  readonly toolNames: readonly string[];
  /**
   * The most recent blocked calls (at most 100, oldest first), each with who blocked it
   * (`source: { kind, name }`) and why: for UIs and reports.
   */
  denials(): Denial[];
  /**
   * Gate + execute one call. Tool failures come back as `status: "error"` results; a malformed call rejects.
   * A call without `id` gets a generated `toolgate_<uuid>`.
   */
  callTool(call: ToolCallInput, options?: CallToolOptions): Promise<ToolResult>;
  /** Gate + execute a batch: one result per call, in input order. */
  callTools(calls: readonly ToolCallInput[], options?: CallToolsOptions): Promise<ToolResult[]>;
  /**
   * Gate only, for hosts that run tools themselves. Follow with `callTool(call, { skipPreToolCallHook: true })`,
   * or run the tool yourself and report it with `postToolCall`. `{ resolveAsk: true }` settles an `ask`
   * through `onAsk` when the host has one.
   */
  checkToolCall(call: ToolCallInput, options?: CheckToolCallOptions): Promise<Verdict>;
  /**
   * For hosts that run tools themselves (after `checkToolCall`): runs every plugin's `post_tool_call`
   * with the call and its result, then settles the call's store reservations (wherever they were made)
   * and resolves once that is stored: the next check, in any host on the store, counts it. Observers and
   * settlements fail open, so this resolves even when one of them fails.
   */
  postToolCall(call: ToolCall, result: ToolResult, options?: CallSessionOptions): Promise<void>;
  /**
   * Why the gate decides what it decides: the verdict (before `onAsk`) and what every `pre_tool_call`
   * plugin said, in plugin order, from the same policy loop. Emits no event and remembers nothing.
   */
  explainToolCall(call: ToolCallInput, options?: CallSessionOptions): Promise<ToolCallExplanation>;
  /**
   * Closes the host: from the moment it is called no tool starts; every call still being decided or
   * waiting for `onAsk` ends blocked with a message naming the close (also in batches, and with
   * `onHookError: "allow"`); hooks still running are aborted (`ctx.signal`); remembered verdicts are
   * dropped. Then `on_session_end` runs. Later calls reject with HOST_CLOSED.
   */
  close(): Promise<void>;
}

/** Finds, loads and validates the plugins, runs `on_session_start`, and returns a ready host. */
export async function createHost(options: HostOptions = {}): Promise<Host> {
  return createHostWithSettings(await resolveSettings(options), options);
}

/**
 * `createHost` once `options` have been merged with the config file: for a caller that needs the settings
 * before plugins load (the hook command learns its deadline from `hookTimeoutMs`). Not part of the package's API.
 */
export async function createHostWithSettings(settings: HostSettings, options: HostOptions): Promise<Host> {
  const logger = guardLogger(resolveHostLogger(options.logger));
  const events = createEventBus(logger, options.on);
  const closeController = new AbortController();
  const registry = new PluginRegistry(options.tools);
  const policies = await installPolicies(settings, { registry, events, logger, session: settings.session, closeSignal: closeController.signal });
  let plugins: PluginRecord[] = [];
  const log =
    typeof settings.decisions.log === "string" ? new DecisionLog({ path: settings.decisions.log, report: (message) => logger.error(message) }) : undefined;
  const recorder = new DecisionRecorder({
    events,
    log,
    args: settings.decisions.args,
    surface: settings.surface,
    policy: () => policyDigest(registry, plugins, settings),
  });
  if (log) log.beforeExit = () => recorder.flushNow();
  const runtime: HostRuntime = {
    registry,
    events,
    logger,
    session: settings.session,
    deadlines: new HookDeadlines(settings.hookTimeoutMs),
    onHookError: settings.onHookError,
    rules: policies.rules,
    shadowRules: policies.shadowRules,
    protection: settings.protectPolicy === "off" ? undefined : new PolicyProtection(settings, settings.protectPolicy),
    pluginFailure: undefined,
    recorder,
    denials: new DenialLog(),
    closeSignal: closeController.signal,
    closed: false,
  };
  const { session } = runtime;

  const shared = await openStore(settings.store, logger, settings.cwd);
  const backend = options.storeWrites === "local" ? withLocalWrites(shared) : shared;
  const ledger = new ReservationLedger(backend, logger);
  ledger.listen(events);
  const store = { backend, ledger };
  const loaded = await loadPlugins(await collectSources(settings), {
    ...runtime,
    runtime: runtime.deadlines,
    cwd: settings.cwd,
    policyPaths: policyPathsOf(settings),
    store,
  });
  plugins = [...policies.records, ...loaded];
  runtime.pluginFailure = pluginFailureOf(loaded, settings.onPluginError);
  reportPolicyState(plugins, settings, logger);
  const gate = createGate(runtime, { onAsk: options.onAsk });
  // A call blocked at the gate never runs: what it reserved is released now. Any other may run
  // elsewhere (the next hook process, another replica): its reservations become findable by call id.
  const caller = createToolCaller(runtime, gate, (callId, verdict) => {
    if (verdict.action === "block") ledger.end(callId, "blocked");
    else ledger.gated(callId);
  });

  events.emit("session:start", { session });
  await runObservers(runtime, "on_session_start", []);

  let closing: Promise<void> | undefined;
  // Order matters: mark closed (no tool starts from here), settle every call still being decided or
  // waiting for onAsk, abort the hooks still running, then let plugins say goodbye.
  const close = async () => {
    runtime.closed = true;
    closeController.abort(new Error("host closed"));
    gate.close();
    runtime.deadlines.abortAll("host closed");
    await runObservers(runtime, "on_session_end", []);
    runtime.deadlines.stopWhenIdle();
    events.emit("session:end", { session });
    // Records go to the disk without holding the close (a hook process answers after it): they are
    // written when they have gathered, or at exit if the process ends first; then the file is closed.
    recorder.close();
    await ledger.flush();
    await backend.close();
  };

  return {
    plugins,
    onPluginError: settings.onPluginError,
    events: events.subscriptions,
    session,
    configPath: settings.configPath,
    get toolNames() {
      return registry.toolNames;
    },
    callTool: caller.callTool,
    checkToolCall: caller.checkToolCall,
    callTools: caller.callTools,
    explainToolCall: caller.explainToolCall,
    postToolCall: (call, result, options) => caller.postToolCall(call, result, options).then(() => ledger.reported(call.id, result.status)),
    denials: () => runtime.denials.recent(),
    close: () => (closing ??= close()),
  };
}

/**
 * Said once, when the host starts (through its logger: stderr by default, never stdout): the plugins
 * that failed and what that means for every call, or that nothing at all guards the calls.
 */
function reportPolicyState(plugins: readonly PluginRecord[], settings: HostSettings, logger: HostLogger): void {
  const failed = plugins.filter((record) => record.status === "failed").length;
  if (failed > 0) {
    const which = failed === 1 ? "a plugin failed" : `${failed} plugins failed`;
    if (settings.onPluginError === "block") logger.error(`${which} to load: every tool call is blocked until the plugins load (onPluginError: "block")`);
    else logger.warn(`${which} to load: the plugins that loaded decide alone (onPluginError: "allow")`);
  } else if (plugins.length === 0)
    logger.warn(
      `no plugins and no permission rules in ${settings.cwd}: every tool call is allowed (add a plugin to ${settings.pluginsDir === false ? "the plugins option" : settings.pluginsDir}, or rules to toolgate.config; see toolgate doctor)`,
    );
}

async function collectSources(settings: HostSettings): Promise<PluginSource[]> {
  const fromFolder = settings.pluginsDir === false ? [] : await discoverFolderPlugins(settings.pluginsDir);
  const fromLists = settings.pluginLists.flatMap(({ entries, baseDir }) => resolvePluginEntries(entries, settings.cwd, baseDir));
  return [...fromFolder, ...fromLists];
}
