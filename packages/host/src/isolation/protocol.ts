import type { HookName, PluginOptions, SessionInfo, ToolArgs, ToolCall } from "@toolgate/plugin-sdk";
import type { ErrorCode } from "../errors.js";

/**
 * The messages between the host and a plugin's worker thread. Everything here crosses a thread boundary by
 * structured clone: plain data only, never a function.
 */

/** What a worker needs to load its plugin (`workerData`). */
export interface WorkerBoot {
  /** The plugin module, loaded in the worker with the host's own loader. */
  path: string;
  options: PluginOptions;
  cwd: string;
  policyPaths: readonly string[];
  session: SessionInfo;
  timeoutMs: number;
}

/** A tool as the host sees it through the boundary: everything but `execute`. */
export interface ToolDescription {
  description?: string;
  parameters?: Record<string, unknown>;
  kind?: string;
}

/** The plugin in the worker, as the host sees it: its fields and the names of its hooks and tools. */
export interface PluginDescription {
  name: string;
  version?: string;
  description?: string;
  order?: number;
  /** Every key of `hooks`, unknown names included, so the host warns about them as for an in-process plugin. */
  hooks: string[];
  tools: Record<string, ToolDescription>;
}

/**
 * Host → worker: run one hook or one tool; the worker answers with `settled` and the same id. `session`
 * is sent only for a call that names its own (`callSession`); otherwise the boot session stands.
 */
export type HostRequest =
  | { type: "hook"; id: number; hook: HookName; args: unknown[]; session?: SessionInfo }
  | { type: "tool"; id: number; tool: string; args: ToolArgs; call: ToolCall; session?: SessionInfo };

/** Host → worker: a host event the plugin subscribed to; `args` are the listener's arguments. */
export interface HostEventMessage {
  type: "event";
  event: string;
  args: unknown[];
}

/** What a worker may ask of its plugin's `api.store`, which lives in the host. */
export type StoreOperation = "get" | "set" | "delete" | "increment" | "reserve";
export const storeOperations: readonly StoreOperation[] = ["get", "set", "delete", "increment", "reserve"];

/** Host → worker: the answer to a `store` request, with its id. */
export type StoreAnswer = { type: "store-answer"; id: number; ok: true; value: unknown } | { type: "store-answer"; id: number; ok: false; error: string };

export type HostMessage = HostRequest | HostEventMessage | StoreAnswer;

export type LogLevel = "debug" | "info" | "warn" | "error";

/** Worker → host. */
export type WorkerMessage =
  /** The module is imported; the factory runs next. */
  | { type: "imported" }
  | { type: "ready"; plugin: PluginDescription }
  /** Loading failed; `code` and `message` are what an in-process load would have reported. */
  | { type: "failed"; code: ErrorCode; message: string }
  | { type: "settled"; id: number; ok: true; value: unknown }
  | { type: "settled"; id: number; ok: false; error: string }
  | { type: "log"; level: LogLevel; message: string; details: unknown[] }
  /** The plugin called `api.on(event, …)`: forward that host event to the worker. */
  | { type: "subscribe"; event: string }
  /** The plugin called `api.store[operation](...args)`: the host runs it and answers with `store-answer`. */
  | { type: "store"; id: number; operation: StoreOperation; args: unknown[] };
