import type { HookContext, HookName, Plugin, SessionInfo, ToolDefinition } from "@toolgate/plugin-sdk";
import { isHookName } from "@toolgate/plugin-sdk/host";
import type { PluginSource } from "../discovery/plugin-source.js";
import { isToolgateError, ToolgateError } from "../errors.js";
import type { EventBus } from "../events.js";
import type { ModuleLoad } from "../loading/load-module.js";
import { createPluginLogger, type HostLogger } from "../logger.js";
import { describeSafely } from "./describe-safely.js";
import { PluginWorker } from "./plugin-worker.js";
import type { PluginDescription, StoreOperation } from "./protocol.js";
import type { StoreBackend } from "@toolgate/plugin-sdk/host";
import { createPluginStore } from "../store/plugin-store.js";
import type { ReservationLedger } from "../store/reservations.js";

/** What loading a plugin into a worker needs from the host. */
export interface IsolationHost {
  cwd: string;
  policyPaths: readonly string[];
  session: SessionInfo;
  timeoutMs: number;
  logger: HostLogger;
  /** Forwarded to the plugin's `api.on` listeners; `session:end` (the end of `host.close()`) terminates the worker. */
  events: EventBus;
  /** Behind the plugin's `api.store`: the worker's store calls run here, namespaced by the plugin's name. */
  store: { backend: StoreBackend; ledger: ReservationLedger };
}

// The host aborts a hook's signal at its timeout, which ends the worker; this is the fallback should that never come.
const backstopMs = 1000;

/**
 * Loads the plugin at `source.path` in its own worker thread and returns a stand-in for it: a plugin
 * with the same name, version, order, hooks and tools, whose every hook and tool `execute` is a call
 * into the worker. The stand-in goes through validation and the registry like any plugin. Until the
 * plugin's own name is known, its log lines carry `fallbackName`.
 */
export async function loadIsolatedPlugin(source: PluginSource & { path: string }, host: IsolationHost, fallbackName: string): Promise<ModuleLoad> {
  let name = fallbackName;
  const log = createPluginLogger(host.logger, () => name);
  const boot = { path: source.path, options: source.options, cwd: host.cwd, policyPaths: host.policyPaths, session: host.session, timeoutMs: host.timeoutMs };
  const store = createPluginStore(() => name, host.store.backend, host.store.ledger);
  const runStore = (operation: StoreOperation, args: unknown[]) => (store[operation] as (...params: unknown[]) => Promise<unknown>).apply(store, args);
  const worker = new PluginWorker(boot, { log, subscribe: (event, deliver) => forwardEvent(host.events, event, deliver), store: runStore });
  let description: PluginDescription;
  try {
    description = await worker.start();
  } catch (error) {
    return { ok: false, error: isToolgateError(error) ? error : new ToolgateError("PLUGIN_LOAD_FAILED", describeSafely(error), { path: source.path }) };
  }
  host.events.emitter.on("session:end", () => worker.close());
  try {
    const standIn = createStandIn(description, worker, host.timeoutMs, host.session);
    name = standIn.name;
    return { ok: true, value: standIn };
  } catch (error) {
    // Only plugin code posting on the worker's port could send a description that is not one.
    worker.close();
    return {
      ok: false,
      error: new ToolgateError("PLUGIN_INVALID", `not a valid plugin: the worker described it wrongly (${describeSafely(error)})`, { path: source.path }),
    };
  }
}

function createStandIn(description: PluginDescription, worker: PluginWorker, timeoutMs: number, bootSession: SessionInfo): Plugin {
  // A call that names its own session sends it along (structured clone); the host's own the worker has.
  const sessionFor = (session: SessionInfo) => (session === bootSession ? {} : { session });
  const deadlineMs = timeoutMs + backstopMs;
  const hooks: Record<string, (...params: unknown[]) => unknown> = {};
  for (const hook of description.hooks) {
    // Unknown names stay, never called, so validation warns about them as it would in-process.
    hooks[hook] = isHookName(hook) ? (...params) => callHook(worker, hook, params, deadlineMs, sessionFor) : () => undefined;
  }
  const tools: Record<string, ToolDefinition> = {};
  for (const [tool, shown] of Object.entries(description.tools)) {
    tools[tool] = { ...shown, execute: (args, ctx) => worker.request({ type: "tool", tool, args, call: ctx.call, ...sessionFor(ctx.session) }) };
  }
  const plugin: Plugin = { name: description.name, hooks, tools };
  if (description.version !== undefined) plugin.version = description.version;
  if (description.description !== undefined) plugin.description = description.description;
  if (description.order !== undefined) plugin.order = description.order;
  return plugin;
}

/** The hook's last parameter is its `ctx`; the rest are data for the worker. */
function callHook(
  worker: PluginWorker,
  hook: HookName,
  params: unknown[],
  deadlineMs: number,
  sessionFor: (session: SessionInfo) => { session?: SessionInfo },
): Promise<unknown> {
  const ctx = params[params.length - 1] as HookContext;
  return worker.request({ type: "hook", hook, args: params.slice(0, -1), ...sessionFor(ctx.session) }, ctx.signal, deadlineMs);
}

/** Subscribes `deliver` to a host event (or `*`), with the arguments a listener would get; returns the unsubscribe. */
function forwardEvent(events: EventBus, event: string, deliver: (args: unknown[]) => void): () => void {
  const emitter = events.emitter as unknown as {
    on(event: string, handler: (...args: unknown[]) => void): void;
    off(event: string, handler: (...args: unknown[]) => void): void;
  };
  const handler = (...args: unknown[]) => deliver(args);
  emitter.on(event, handler);
  return () => emitter.off(event, handler);
}
