import type { Plugin, PluginFactory, PluginOptions, ToolCall, ToolDefinition } from "@toolgate/plugin-sdk";
import { isPlainObject } from "@toolgate/plugin-sdk/host";
import * as v from "valibot";
import { hostEventNames, type HostEventListeners } from "./events.js";
import type { HostLogger } from "./logger.js";
import { isStoreSetting } from "./store/open-store.js";
import { HooksConfigSchema, PermissionsConfigSchema, type HooksConfig } from "./policies/policy-config.js";
import type { PermissionsConfig } from "./policies/permission-rules.js";

/** A plugin as named in options or config: an npm name, a path, an inline plugin, or any of them with options. */
export type PluginSpecifier = string | Plugin<never> | PluginFactory<never>;
export type PluginEntry = PluginSpecifier | readonly [PluginSpecifier, PluginOptions] | readonly [PluginSpecifier, PluginOptions, PluginHostSettings];

/** How the host runs one plugin: the third element of a `plugins` entry. Unlike the options, the plugin never sees these. */
export interface PluginHostSettings {
  /**
   * `"worker"` runs the plugin in its own worker thread, so a hook stuck in a loop is cut off at the hook
   * timeout (the worker is restarted) instead of hanging the host. Only for plugins named by path or
   * package name; each call then costs a message round trip. See "Isolation" in the host README.
   * @default "none" (in the host's thread)
   */
  isolation?: "none" | "worker";
  /**
   * `true` runs the plugin in shadow mode: it is asked about every call as usual and its answer is
   * recorded (`shadow: true` in the record's participants), but it never takes part in the verdict: no
   * block, ask, allow or modify of its own, and its errors and timeouts do not fail the call closed.
   * See "Shadow mode" in the host README.
   * @default false
   */
  shadow?: boolean;
}

/** Metadata handed to hooks as `ctx.session`. */
export interface SessionOptions {
  id?: string;
  user?: string;
  [key: string]: unknown;
}

/** Decides an `ask`: `true` runs the call, `false` blocks it. */
export type AskHandler = (call: ToolCall, message: string) => boolean | Promise<boolean>;

/** What a `toolgate.config.*` file may set. */
export interface ToolgateConfig {
  /**
   * npm package names, paths (relative to the config file), or `[nameOrPath, options]` pairs, optionally
   * with host settings: `[nameOrPath, options, { isolation: "worker", shadow: true }]`.
   */
  plugins?: PluginEntry[];
  /** @default "plugins" (relative to the config file); `false` turns folder discovery off */
  pluginsDir?: string | false;
  /**
   * How long each hook (and each plugin factory) may take, in whole milliseconds from 1 to 2147483647
   * (Node's timer limit; a larger value would fire after 1 ms). `Infinity` means no timeout. A
   * synchronous hook that returns only after it has timed out too: its answer does not count.
   * @default 5000
   */
  hookTimeoutMs?: number;
  /** What a `pre_tool_call` that throws, rejects or times out means: `"block"` fails closed, `"allow"` fails open. @default "block" */
  onHookError?: "block" | "allow";
  /**
   * What a plugin that failed to load or validate (a configured one or one dropped in the plugins folder)
   * means for every call: `"block"` blocks every call with the cause (the plugin, its file and the
   * reason) until it loads, on every surface; `"allow"` lets the plugins that did load decide alone.
   * The failure is reported either way (`host.plugins`, `plugin:error`).
   * @default "block"
   */
  onPluginError?: "block" | "allow";
  session?: SessionOptions;
  /**
   * Where `api.store` keeps plugin state: `"memory"` (this process only), `"file"` (files under
   * `.toolgate/store`, shared by processes on this machine), `"file:<dir>"` (relative to the config
   * file), or a `redis://` / `rediss://` URL (shared by every process and machine using it).
   * @default "memory"
   */
  store?: string;
  /**
   * Policy without code: shell commands, HTTP services and model judges run as `pre_tool_call` and
   * `post_tool_call` participants of the gate (docs/policies/). Relative commands resolve from the config file.
   */
  hooks?: HooksConfig;
  /** Deny, ask and allow rules, `toolGlob` or `toolGlob:arg=valueGlob…`, checked before every plugin. */
  permissions?: PermissionsConfig;
  /** One record per decided call: where they are appended, and whether they carry the arguments. */
  decisions?: DecisionsConfig;
  /**
   * What a call that would change toolgate's own policy gets, on every surface: a write, edit, move,
   * delete or link (through a file tool or a shell command) to the config files, the plugins folder,
   * `.toolgate/`, the agents' hook settings, the installed toolgate or the npm plugins named here.
   * `"block"` refuses it, `"ask"` asks a human (`onAsk`; blocked where nobody can answer), `"off"` turns
   * the check off. See "toolgate protects its own policy" in the host README.
   * @default "block"
   */
  protectPolicy?: "block" | "ask" | "off";
}

/** Where decision records go (`decisions` in config and options). */
export interface DecisionsConfig {
  /**
   * The JSON-lines file records are appended to (relative to the config file, or to `cwd` in options);
   * `false` writes none. Rotated at 10 MiB to `<name>.1.jsonl`.
   * @default none for the library; `.toolgate/decisions.jsonl` in the project for the CLI's surfaces
   */
  log?: string | false;
  /** `"full"` puts each call's arguments in its record; `"digest"` only their SHA-256. @default "digest" */
  args?: "full" | "digest";
}

export interface HostOptions extends ToolgateConfig {
  /** The project root: plugins, packages and the config file are found from here. @default process.cwd() */
  cwd?: string;
  /** The agent's own tools. */
  tools?: Record<string, ToolDefinition>;
  /** Decides `ask` verdicts. @default every ask is blocked */
  onAsk?: AskHandler;
  /** Where host warnings and plugin logs go; `false` silences them. @default stderr, every level */
  logger?: HostLogger | false;
  /** A config file to load, or `false` to load none. @default the first `toolgate.config.{ts,mts,js,mjs}` in `cwd` */
  configFile?: string | false;
  /**
   * Event listeners by event name, attached before any plugin loads, so `plugin:loaded`, `plugin:error`
   * and `session:start` (all emitted inside `createHost`) reach them. Later: `host.events.on`.
   */
  on?: HostEventListeners;
  /**
   * `"local"`: plugins read the shared store, and everything they write (reservations, counters,
   * values) stays in this host's memory, so a dry run (`toolgate run`) sees real budgets without
   * using them up. @default "shared"
   */
  storeWrites?: "shared" | "local";
  /**
   * The surface named in this host's decision records, for calls whose options name none: an app or
   * adapter embedding the host names itself here (`"serve"`, `"mcp-proxy"`, …). @default "library"
   */
  surface?: string;
}

/** Identity helper that types a `toolgate.config.*` default export. */
export function defineConfig(config: ToolgateConfig): ToolgateConfig {
  return config;
}

/** The longest delay Node's timers honour; a larger one fires after 1 ms. */
const maxTimerMs = 2 ** 31 - 1;

const pluginSpecifier = v.union(
  [v.pipe(v.string(), v.nonEmpty()), v.function(), v.custom<object>(isPlainObject)],
  "must be a package name, a path, a plugin object or a factory",
);
const pluginOptions = v.custom<PluginOptions>(isPlainObject, "must be a plain object (the plugin's options)");
const pluginHostSettings = v.strictObject(
  {
    isolation: v.optional(v.picklist(["none", "worker"], 'must be "none" or "worker"')),
    shadow: v.optional(v.boolean("must be true or false")),
  },
  "is not a plugin setting (isolation, shadow)",
);
const pairOrTriple = v.pipe(
  v.strictTuple(
    [pluginSpecifier, pluginOptions, v.optional(pluginHostSettings)],
    "must be a [nameOrPath, options] pair or a [nameOrPath, options, settings] triple",
  ),
  v.check(
    ([specifier, , settings]) => settings?.isolation !== "worker" || typeof specifier === "string",
    'isolation "worker" needs a plugin named by path or package name: an inline plugin object or function cannot be moved to a worker',
  ),
);
// Chosen by shape rather than a union, so a bad item inside an entry is reported where it is.
const pluginEntry = v.lazy((entry) => (Array.isArray(entry) ? pairOrTriple : pluginSpecifier));

const configEntries = {
  plugins: v.optional(v.array(pluginEntry, "must be an array")),
  pluginsDir: v.optional(v.union([v.pipe(v.string(), v.nonEmpty()), v.literal(false)], "must be a path or false")),
  hookTimeoutMs: v.optional(v.custom<number>(isHookTimeout, `must be a whole number of milliseconds from 1 to ${maxTimerMs}, or Infinity for no timeout`)),
  onHookError: v.optional(v.picklist(["block", "allow"], 'must be "block" or "allow"')),
  onPluginError: v.optional(v.picklist(["block", "allow"], 'must be "block" or "allow"')),
  store: v.optional(
    v.custom<string>(isStoreSetting, 'must be "memory", "file", "file:<dir>" or a redis:// (or rediss://) URL such as "redis://127.0.0.1:6379"'),
  ),
  session: v.optional(
    v.looseObject({
      id: v.optional(v.pipe(v.string("must be a string"), v.nonEmpty("must not be empty"))),
      user: v.optional(v.string("must be a string")),
    }),
  ),
  hooks: v.optional(HooksConfigSchema),
  permissions: v.optional(PermissionsConfigSchema),
  protectPolicy: v.optional(v.picklist(["block", "ask", "off"], 'must be "block", "ask" or "off"')),
  decisions: v.optional(
    v.strictObject(
      {
        log: v.optional(v.union([v.pipe(v.string(), v.nonEmpty()), v.literal(false)], "must be a path or false")),
        args: v.optional(v.picklist(["full", "digest"], 'must be "full" or "digest"')),
      },
      "is not a decisions setting (log, args)",
    ),
  ),
};

export const ConfigSchema = v.strictObject(
  configEntries,
  "is not a config key (plugins, pluginsDir, hookTimeoutMs, onHookError, onPluginError, session, store, hooks, permissions, decisions, protectPolicy)",
);

const hostOptionEntries = {
  ...configEntries,
  cwd: v.optional(v.pipe(v.string("must be a string"), v.nonEmpty())),
  tools: v.optional(v.record(v.string(), v.custom<ToolDefinition>(isToolDefinitionLike, "must be a tool with an execute function"))),
  onAsk: v.optional(v.function("must be a function")),
  logger: v.optional(v.union([v.literal(false), v.custom<HostLogger>(isLoggerLike)], "must be a logger (debug, info, warn and error functions) or false")),
  configFile: v.optional(v.union([v.pipe(v.string(), v.nonEmpty()), v.literal(false)], "must be a path or false")),
  storeWrites: v.optional(v.picklist(["shared", "local"], 'must be "shared" or "local"')),
  surface: v.optional(v.pipe(v.string("must be a string"), v.nonEmpty("must not be empty"))),
  on: v.optional(
    v.strictObject(
      Object.fromEntries(hostEventNames.map((name) => [name, v.optional(v.function("must be a listener function"))])),
      `is not an event name (${hostEventNames.join(", ")})`,
    ),
  ),
};

// Strict, so a misspelt option (`hookTimeoutMS`, `plugin`) is an error rather than a host without that policy.
export const HostOptionsSchema = v.strictObject(hostOptionEntries, `is not a createHost option (${Object.keys(hostOptionEntries).join(", ")})`);

function isHookTimeout(value: unknown): boolean {
  return value === Infinity || (Number.isInteger(value) && (value as number) >= 1 && (value as number) <= maxTimerMs);
}

// Class-based loggers (pino, winston) count: what matters is the four methods.
function isLoggerLike(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  const logger = value as Record<keyof HostLogger, unknown>;
  return typeof logger.debug === "function" && typeof logger.info === "function" && typeof logger.warn === "function" && typeof logger.error === "function";
}

function isToolDefinitionLike(value: unknown): boolean {
  return typeof value === "object" && value !== null && typeof (value as ToolDefinition).execute === "function";
}
