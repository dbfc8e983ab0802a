import type { PluginApi, PluginRecord, SessionInfo } from "@toolgate/plugin-sdk";
import { basename, extname } from "node:path";
import type { PluginSource } from "../discovery/plugin-source.js";
import { describeThrown, pluginLabel, ToolgateError } from "../errors.js";
import type { EventBus } from "../events.js";
import type { HookRuntime } from "../invocation/run-hook.js";
import { createPluginLogger, type HostLogger } from "../logger.js";
import type { PluginRegistry } from "../registry/registry.js";
import type { StoreBackend } from "@toolgate/plugin-sdk/host";
import { createPluginStore } from "../store/plugin-store.js";
import type { ReservationLedger } from "../store/reservations.js";
import { validatePlugin } from "../validation/validate-plugin.js";
import { loadIsolatedPlugin } from "../isolation/isolated-plugin.js";
import { instantiatePlugin } from "./instantiate-plugin.js";
import { loadPluginModule } from "./load-module.js";
import { createPluginListeners } from "./plugin-listeners.js";

export interface LoadDependencies {
  registry: PluginRegistry;
  events: EventBus;
  logger: HostLogger;
  session: SessionInfo;
  /** Factories run through `runHook` with the hooks' timeout. */
  runtime: HookRuntime;
  cwd: string;
  policyPaths: readonly string[];
  /** Behind every plugin's `api.store`, namespaced by the plugin's name. */
  store: { backend: StoreBackend; ledger: ReservationLedger };
}

/**
 * Loads every source in order: module → factory → validation → registry. Each step returns a result, so
 * one broken plugin is reported (`plugin:error`, a record with its error) and the rest still load.
 */
export async function loadPlugins(sources: readonly PluginSource[], deps: LoadDependencies): Promise<PluginRecord[]> {
  const records: PluginRecord[] = [];
  for (const source of sources) records.push(await loadGuarded(source, deps));
  return records;
}

// Each step returns a result; this is the backstop for what a hostile plugin might still make throw,
// so that one plugin fails and the host starts.
async function loadGuarded(source: PluginSource, deps: LoadDependencies): Promise<PluginRecord> {
  try {
    return await loadOne(source, deps);
  } catch (error) {
    const record = newRecord(source);
    const reason = `loading failed: ${describeUnknown(error)}`;
    return reportFailure(record, new ToolgateError("PLUGIN_LOAD_FAILED", reason, { path: source.path, cause: error }), deps);
  }
}

function describeUnknown(error: unknown): string {
  try {
    return describeThrown(error);
  } catch {
    return "it threw a value that cannot be read";
  }
}

async function loadOne(source: PluginSource, deps: LoadDependencies): Promise<PluginRecord> {
  const record = newRecord(source);
  const listeners = createPluginListeners(deps.events.emitter);
  const fail = (error: ToolgateError) => {
    listeners.drop();
    return reportFailure(record, error, deps);
  };
  if (source.error) return fail(source.error);

  let exported = source.value;
  if (source.path !== undefined && exported === undefined) {
    const loaded =
      source.isolation === "worker"
        ? await loadIsolatedPlugin({ ...source, path: source.path }, { ...deps, timeoutMs: deps.runtime.timeoutMs }, record.name)
        : await loadPluginModule(source.path);
    if (!loaded.ok) return fail(loaded.error);
    exported = loaded.value;
  }
  const log = createPluginLogger(deps.logger, () => record.name);
  const store = createPluginStore(() => record.name, deps.store.backend, deps.store.ledger);
  const api: PluginApi = { cwd: deps.cwd, policyPaths: deps.policyPaths, session: deps.session, log, store, on: listeners.on };
  const factoryCall = { label: record.name, path: source.path, options: source.options, api, runtime: deps.runtime };
  const instance = await instantiatePlugin(exported, factoryCall);
  if (!instance.ok) return fail(instance.error);

  const validation = validatePlugin(instance.value);
  if (!validation.ok) return fail(new ToolgateError("PLUGIN_INVALID", `not a valid plugin: ${validation.reason}`, { path: source.path }));
  const { plugin } = validation;
  record.name = plugin.name;
  if (plugin.version !== undefined) record.version = plugin.version;
  record.warnings.push(...validation.warnings);

  const rejected = deps.registry.add(
    source.shadow === true ? { plugin, options: source.options, record, log, shadow: true } : { plugin, options: source.options, record, log },
  );
  if (rejected) return fail(rejected);
  record.status = "loaded";
  listeners.activate();
  for (const warning of record.warnings) deps.logger.warn(`${pluginLabel(record.name, record.path)}: ${warning}`);
  deps.events.emit("plugin:loaded", { plugin: record });
  return record;
}

function reportFailure(record: PluginRecord, error: ToolgateError, deps: LoadDependencies): PluginRecord {
  record.status = "failed";
  record.error = error.code === "PLUGIN_DUPLICATE" ? error.message : `${record.path ?? record.name}: ${error.message}`;
  deps.logger.error(`${pluginLabel(record.name)} failed to load: ${record.error}`);
  deps.events.emit("plugin:error", { plugin: record, error });
  return record;
}

function newRecord(source: PluginSource): PluginRecord {
  const record: PluginRecord = { name: fallbackName(source), source: source.origin, status: "failed", warnings: [] };
  if (source.path !== undefined) record.path = source.path;
  if (source.shadow === true) record.shadow = true;
  return record;
}

/** A name for reports until the plugin's own name is known: the package name or the file's name. */
function fallbackName(source: PluginSource): string {
  if (source.origin === "npm" || source.origin === "inline" || source.path === undefined || source.label !== source.path) return source.label;
  const file = basename(source.path);
  const stem = file.slice(0, file.length - extname(file).length);
  return stem === "index" ? basename(source.path.replace(/\/(src\/)?index\.[^/]+$/, "")) : stem;
}
