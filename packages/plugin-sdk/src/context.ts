import type { ToolCall } from "./tool-call.js";

/** Who and what a session is about; handed to every hook as `ctx.session`. */
export interface SessionInfo {
  /** A stable id for the session (the host generates one when none is given). */
  readonly id: string;
  /** The end user, when the embedding app knows one. */
  readonly user?: string;
  /** Free-form metadata from the host's `session` option. */
  readonly [key: string]: unknown;
}

/** A logger scoped to one plugin: every line is prefixed with the plugin's name. */
export interface PluginLogger {
  debug(message: string, ...details: unknown[]): void;
  info(message: string, ...details: unknown[]): void;
  warn(message: string, ...details: unknown[]): void;
  error(message: string, ...details: unknown[]): void;
}

/** The options a plugin was configured with (`[name, options]` in config). */
export type PluginOptions = Record<string, unknown>;

/** What every hook receives as its last argument. */
export interface HookContext<Options = PluginOptions> {
  /** The name of the plugin whose hook is running. */
  readonly plugin: string;
  readonly session: SessionInfo;
  /** Fires when the hook times out or the host closes; pass it on to fetch, child processes, … */
  readonly signal: AbortSignal;
  readonly options: Options;
  readonly log: PluginLogger;
}

/** What a tool's `execute` receives besides its arguments. */
export interface ToolContext {
  /** The call being executed, with the arguments after every `modify`. */
  readonly call: ToolCall;
  readonly session: SessionInfo;
  /** Fires when the host closes. */
  readonly signal: AbortSignal;
}
