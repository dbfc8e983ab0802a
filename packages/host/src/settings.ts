import { basename, resolve } from "node:path";
import type { SessionInfo } from "@toolgate/plugin-sdk";
import * as v from "valibot";
import { findConfigFile, loadConfigFile, type LoadedConfig } from "./discovery/config-file.js";
import { ToolgateError } from "./errors.js";
import { HostOptionsSchema, type HostOptions, type PluginEntry } from "./options.js";
import { parseStoreSetting, type StoreSetting } from "./store/open-store.js";
import type { PermissionsConfig } from "./policies/permission-rules.js";
import type { HookConfig } from "./policies/policy-config.js";
import { summarizeIssues } from "./schema-messages/summarize-issues.js";

/** Host options and the config file, merged: options win, plugin lists are joined. */
export interface HostSettings {
  cwd: string;
  configPath: string | undefined;
  pluginsDir: string | false;
  /** The `plugins` lists, each with the folder its relative paths resolve from. */
  pluginLists: { entries: readonly PluginEntry[]; baseDir: string }[];
  hookTimeoutMs: number;
  onHookError: "block" | "allow";
  onPluginError: "block" | "allow";
  session: SessionInfo;
  store: StoreSetting;
  /** Configured hooks from the config file, then from options, each with where it was written. */
  policyHooks: ConfiguredHook[];
  /** The config's and the options' enforced rules, joined. */
  permissions: PermissionsConfig;
  /** The config's and the options' shadow rules (`permissions.shadow`), joined. */
  shadowPermissions: PermissionsConfig;
  /** `log`: an absolute path, `false` (turned off), or undefined (not configured: the surface's default applies). */
  decisions: { log: string | false | undefined; args: "full" | "digest" };
  /** The surface named in records of calls that name none. */
  surface: string;
  /** What a call that would change toolgate's own policy gets (`protectPolicy`). */
  protectPolicy: "block" | "ask" | "off";
}

/** One entry of `hooks`, with what an error about it must name. */
export interface ConfiguredHook {
  event: "pre_tool_call" | "post_tool_call";
  config: HookConfig;
  /** Relative commands resolve from here: the config file's folder, or `cwd` for options. */
  baseDir: string;
  /** `toolgate.config.yaml: hooks.pre_tool_call[0]` or `createHost(): hooks.pre_tool_call[0]`. */
  where: string;
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
    onPluginError: options.onPluginError ?? config.onPluginError ?? "block",
    session: createSession({ ...config.session, ...options.session }),
    store: resolveStore(options, loaded, cwd),
    policyHooks: [
      ...configuredHooks(config.hooks, loaded?.dir ?? cwd, configPath === undefined ? "config" : basename(configPath)),
      ...configuredHooks(options.hooks, cwd, "createHost()"),
    ],
    permissions: joinPermissions([config.permissions, options.permissions], false),
    shadowPermissions: joinPermissions([config.permissions, options.permissions], true),
    decisions: {
      log: resolveDecisionsLog(options.decisions?.log, config.decisions?.log, cwd, loaded?.dir ?? cwd),
      args: options.decisions?.args ?? config.decisions?.args ?? "digest",
    },
    surface: options.surface ?? "library",
    protectPolicy: options.protectPolicy ?? config.protectPolicy ?? "block",
  };
}

/** The options' setting wins over the config's; a relative path resolves from where it was written. */
function resolveDecisionsLog(
  fromOptions: string | false | undefined,
  fromConfig: string | false | undefined,
  cwd: string,
  configDir: string,
): string | false | undefined {
  if (fromOptions !== undefined) return fromOptions === false ? false : resolve(cwd, fromOptions);
  if (fromConfig !== undefined) return fromConfig === false ? false : resolve(configDir, fromConfig);
  return undefined;
}

/**
 * The CLI's surfaces record every decision in the project by default: `.toolgate/decisions.jsonl` in
 * `cwd`, unless the config or options set `decisions.log` (a path, or `false` for none).
 */
export function withProjectDecisionsLog(settings: HostSettings): HostSettings {
  if (settings.decisions.log !== undefined) return settings;
  return { ...settings, decisions: { ...settings.decisions, log: resolve(settings.cwd, ".toolgate", "decisions.jsonl") } };
}

// Validated already; a relative `file:` path resolves from where it was written.
function resolveStore(options: HostOptions, loaded: LoadedConfig | undefined, cwd: string): StoreSetting {
  const fromConfig = loaded?.config.store;
  if (options.store !== undefined) return parseStoreSetting(options.store, cwd)!;
  if (fromConfig !== undefined) return parseStoreSetting(fromConfig, fromConfig === "file" ? cwd : loaded!.dir)!;
  return { kind: "memory" };
}

function configuredHooks(hooks: HostOptions["hooks"], baseDir: string, file: string): ConfiguredHook[] {
  const events = ["pre_tool_call", "post_tool_call"] as const;
  return events.flatMap((event) => (hooks?.[event] ?? []).map((config, index) => ({ event, config, baseDir, where: `${file}: hooks.${event}[${index}]` })));
}

/** The enforced rules of every list, or (`shadow`) the rules of every list that are in shadow mode. */
function joinPermissions(lists: (PermissionsConfig | undefined)[], shadow: boolean): PermissionsConfig {
  const ruleSets = lists.map((list) => {
    if (list === undefined) return undefined;
    if (list.shadow === true) return shadow ? list : undefined;
    if (shadow) return typeof list.shadow === "object" ? list.shadow : undefined;
    return list;
  });
  const join = (effect: "deny" | "ask" | "allow") => ruleSets.flatMap((rules) => rules?.[effect] ?? []);
  return { deny: join("deny"), ask: join("ask"), allow: join("allow") };
}

function resolvePluginsDir(options: HostOptions, loaded: LoadedConfig | undefined, cwd: string): string | false {
  if (options.pluginsDir !== undefined) return options.pluginsDir === false ? false : resolve(cwd, options.pluginsDir);
  const fromConfig = loaded?.config.pluginsDir;
  if (fromConfig !== undefined) return fromConfig === false ? false : resolve(loaded!.dir, fromConfig);
  return resolve(cwd, "plugins");
}

// A generated id is made on first read: any crypto module loads ~30 more (streams, hashes) into the
// process, and the hook's one-call process often never reads it. The global Web Crypto, not node:crypto.
function createSession(session: Record<string, unknown>): SessionInfo {
  if (typeof session.id === "string") return Object.freeze({ ...session, id: session.id }) as SessionInfo;
  let id: string | undefined;
  return Object.freeze({
    ...session,
    get id() {
      id ??= crypto.randomUUID();
      return id;
    },
  }) as SessionInfo;
}
