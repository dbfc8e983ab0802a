import { randomUUID } from "node:crypto";
import { resolve } from "node:path";
import type { SessionInfo } from "@toolgate/plugin-sdk";
import * as v from "valibot";
import { findConfigFile, loadConfigFile, type LoadedConfig } from "./discovery/config-file.js";
import { ToolgateError } from "./errors.js";
import { HostOptionsSchema, type HostOptions, type PluginEntry } from "./options.js";
import { parseStoreSetting, type StoreSetting } from "./store/open-store.js";
import { summarizeIssues } from "./validation/summarize-issues.js";

/** Host options and the config file, merged: options win, plugin lists are joined. */
export interface HostSettings {
  cwd: string;
  configPath: string | undefined;
  pluginsDir: string | false;
  /** The `plugins` lists, each with the folder its relative paths resolve from. */
  pluginLists: { entries: readonly PluginEntry[]; baseDir: string }[];
  hookTimeoutMs: number;
  onHookError: "block" | "allow";
  session: SessionInfo;
  store: StoreSetting;
}

const defaultHookTimeoutMs = 5000;

export async function resolveSettings(options: HostOptions): Promise<HostSettings> {
  const parsed = v.safeParse(HostOptionsSchema, options);
  if (!parsed.success) throw new ToolgateError("INVALID_OPTIONS", `createHost(): ${summarizeIssues(parsed.issues)}`);
  const cwd = resolve(options.cwd ?? process.cwd());
  const configPath = findConfigFile(cwd, options.configFile);
  const loaded: LoadedConfig | undefined = configPath === undefined ? undefined : await loadConfigFile(configPath);
  const config = loaded?.config ?? {};
  return {
    cwd,
    configPath,
    pluginsDir: resolvePluginsDir(options, loaded, cwd),
    pluginLists: [
      { entries: config.plugins ?? [], baseDir: loaded?.dir ?? cwd },
      { entries: options.plugins ?? [], baseDir: cwd },
    ],
    hookTimeoutMs: options.hookTimeoutMs ?? config.hookTimeoutMs ?? defaultHookTimeoutMs,
    onHookError: options.onHookError ?? config.onHookError ?? "block",
    session: createSession({ ...config.session, ...options.session }),
    store: resolveStore(options, loaded, cwd),
  };
}

// Validated already; a relative `file:` path resolves from where it was written.
function resolveStore(options: HostOptions, loaded: LoadedConfig | undefined, cwd: string): StoreSetting {
  const fromConfig = loaded?.config.store;
  if (options.store !== undefined) return parseStoreSetting(options.store, cwd)!;
  if (fromConfig !== undefined) return parseStoreSetting(fromConfig, fromConfig === "file" ? cwd : loaded!.dir)!;
  return { kind: "memory" };
}

function resolvePluginsDir(options: HostOptions, loaded: LoadedConfig | undefined, cwd: string): string | false {
  if (options.pluginsDir !== undefined) return options.pluginsDir === false ? false : resolve(cwd, options.pluginsDir);
  const fromConfig = loaded?.config.pluginsDir;
  if (fromConfig !== undefined) return fromConfig === false ? false : resolve(loaded!.dir, fromConfig);
  return resolve(cwd, "plugins");
}

function createSession(session: Record<string, unknown>): SessionInfo {
  return Object.freeze({ ...session, id: typeof session.id === "string" ? session.id : randomUUID() }) as SessionInfo;
}
