import type { PluginApi, PluginRecord, SessionInfo } from "@toolgate/plugin-sdk";
import { basename, extname } from "node:path";
import type { PluginSource } from "../discovery/plugin-source.js";
import { pluginLabel, ToolgateError } from "../errors.js";
import type { EventBus } from "../events.js";
import { createPluginLogger, type HostLogger } from "../logger.js";
import type { PluginRegistry } from "../registry/registry.js";
import { validatePlugin } from "../validation/validate-plugin.js";
import { loadIsolatedPlugin } from "../isolation/isolated-plugin.js";
import { instantiatePlugin } from "./instantiate-plugin.js";
import { loadPluginModule } from "./load-module.js";

export interface LoadDependencies {
  registry: PluginRegistry;
  events: EventBus;
  logger: HostLogger;
  session: SessionInfo;
  cwd: string;
  timeoutMs: number;
}

/**
 * Loads every source in order: module → factory → validation → registry. Each step returns a result, so
 * one broken plugin is reported (`plugin:error`, a record with its error) and the rest still load.
 */
export async function loadPlugins(sources: readonly PluginSource[], deps: LoadDependencies): Promise<PluginRecord[]> {
  const records: PluginRecord[] = [];
  for (const source of sources) records.push(await loadOne(source, deps));
  return records;
}

async function loadOne(source: PluginSource, deps: LoadDependencies): Promise<PluginRecord> {
  const record: PluginRecord = { name: fallbackName(source), source: source.origin, status: "failed", warnings: [] };
  if (source.path !== undefined) record.path = source.path;
  const fail = (error: ToolgateError) => reportFailure(record, error, deps);
  if (source.error) return fail(source.error);

  let exported = source.value;
  if (source.path !== undefined && exported === undefined) {
    const loaded = source.isolation === "worker" ? await loadIsolatedPlugin({ ...source, path: source.path }, deps, record.name) : await loadPluginModule(source.path);
    if (!loaded.ok) return fail(loaded.error);
    exported = loaded.value;
  }
  const log = createPluginLogger(deps.logger, () => record.name);
  const api: PluginApi = { cwd: deps.cwd, session: deps.session, log, on: (event, listener) => deps.events.emitter.on(event, listener) };
  const instance = await instantiatePlugin(exported, source.options, api, deps.timeoutMs, source.path);
  if (!instance.ok) return fail(instance.error);

  const validation = validatePlugin(instance.value);
  if (!validation.ok) return fail(new ToolgateError("PLUGIN_INVALID", `not a valid plugin: ${validation.reason}`, { path: source.path }));
  const { plugin } = validation;
  record.name = plugin.name;
  if (plugin.version !== undefined) record.version = plugin.version;
  record.warnings.push(...validation.warnings);

  const rejected = deps.registry.add({ plugin, options: source.options, record, log });
  if (rejected) return fail(rejected);
  record.status = "loaded";
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

/** A name for reports until the plugin's own name is known: the package name or the file's name. */
function fallbackName(source: PluginSource): string {
  if (source.origin === "npm" || source.origin === "inline" || source.path === undefined || source.label !== source.path) return source.label;
  const file = basename(source.path);
  const stem = file.slice(0, file.length - extname(file).length);
  return stem === "index" ? basename(source.path.replace(/\/(src\/)?index\.[^/]+$/, "")) : stem;
}
