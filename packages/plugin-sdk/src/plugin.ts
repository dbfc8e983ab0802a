import type { PluginLogger, PluginOptions, SessionInfo } from "./context.js";
import type { HostEventName, HostEvents } from "./events.js";
import type { Hooks } from "./hooks.js";
import type { PluginStore } from "./store.js";
import type * as v from "valibot";
import type { PluginFieldsSchema, ToolDefinitionSchema } from "./schemas.js";
import type { ToolCall } from "./tool-call.js";

type MaybePromise<T> = T | Promise<T>;

/** A tool the agent or a plugin offers (`ToolDefinitionSchema`). Every call to it passes the gate first. */
export type ToolDefinition = v.InferOutput<typeof ToolDefinitionSchema>;

/** A plugin: a name (and the other fields of `PluginFieldsSchema`), hooks and optional tools. */
export interface Plugin<Options = PluginOptions> extends v.InferOutput<typeof PluginFieldsSchema> {
  hooks?: Hooks<Options>;
  /** Tools this plugin contributes; they pass the gate like any other tool. */
  tools?: Record<string, ToolDefinition>;
  /**
   * An optional diagnostic for `toolgate explain`: called with one tool call, only when a user asks why
   * it was decided (never while gating). Return JSON-able details of how the plugin reads the call (a
   * shell guard returns its parse); they are printed as they are. It decides nothing, so keep it free
   * of side effects.
   */
  explain?: (call: ToolCall) => unknown;
}

/** What a plugin factory receives besides its options. */
export interface PluginApi {
  /** The host's working directory (the project root). */
  readonly cwd: string;
  /**
   * Where the host's own policy lives, as absolute paths (they may not exist yet): its config files, the
   * plugins folder, `.toolgate/`, the agents' hook settings, the installed CLI. A plugin that hands calls to
   * another process (a sandbox) keeps them out of that process's reach.
   */
  readonly policyPaths: readonly string[];
  readonly session: SessionInfo;
  readonly log: PluginLogger;
  /**
   * State shared across processes and machines, namespaced to this plugin; the backend is the host's
   * `store` setting (memory by default).
   */
  readonly store: PluginStore;
  /**
   * Subscribes to a host event (observe only; a listener cannot change a decision). Listeners go live
   * once the plugin has validated and registered, and are dropped if it fails to load.
   * @returns a function that unsubscribes the listener (calling it again does nothing)
   */
  on<Name extends HostEventName>(event: Name, listener: (payload: HostEvents[Name]) => void): () => void;
}

/** A plugin that needs options: called once per host with the configured options. */
export type PluginFactory<Options = PluginOptions> = (options: Options, api: PluginApi) => MaybePromise<Plugin<Options>>;

/** Anything a plugin module may export. */
export type PluginExport = Plugin<never> | PluginFactory<never>;

/**
 * Declares a plugin with full types and no annotations. Pass the plugin object, or a factory
 * `(options, api) => plugin` for a plugin with options. Returns its argument unchanged.
 */
// `call?: never` keeps functions (which have a string `name` too) out of the object overload, so a
// factory reaches the second one; the object overload stays first so hook callbacks infer their types.
export function definePlugin<Options = PluginOptions>(plugin: Plugin<Options> & { call?: never }): Plugin<Options>;
export function definePlugin<Options = PluginOptions>(factory: PluginFactory<Options>): PluginFactory<Options>;
export function definePlugin<Options>(definition: Plugin<Options> | PluginFactory<Options>): Plugin<Options> | PluginFactory<Options> {
  if (typeof definition === "function") return definition;
  if (typeof definition !== "object" || definition === null) throw new TypeError("definePlugin() takes a plugin object or a factory function");
  if (typeof definition.name !== "string" || definition.name.trim() === "") throw new TypeError("definePlugin(): the plugin needs a non-empty string `name`");
  return definition;
}
