import type { SessionInfo } from "./context.js";
import type { DecisionRecord } from "./decision-record.js";
import type { PolicySource, ToolResult, Verdict } from "./results.js";
import type { ToolCall } from "./tool-call.js";

/** Where a plugin came from. */
export type PluginSource = "folder" | "npm" | "inline" | "config";

/** A plugin as the host sees it, loaded or not. */
export interface PluginRecord {
  name: string;
  version?: string;
  source: PluginSource;
  /** The file the plugin was loaded from (absent for inline plugins). */
  path?: string;
  status: "loaded" | "failed";
  /** One line saying what went wrong, naming the file. */
  error?: string;
  /** Warnings found while validating (an unknown hook name, …). */
  warnings: string[];
  /** For a configured hook or the permission rules (no plugin code): what it is. Absent for plugins. */
  policy?: PolicySource;
  /** It runs in shadow mode (`shadow: true`): asked and recorded, never part of the verdict. */
  shadow?: true;
}

/** The host's events (mitt). They observe only: a listener cannot change a decision. */
// A type alias, not an interface: mitt needs an index-signature-compatible map.
export type HostEvents = {
  "plugin:loaded": { plugin: PluginRecord };
  "plugin:error": { plugin: PluginRecord; error: Error };
  /** An allowed call is about to run (after the gate). */
  "tool:before": { call: ToolCall; verdict: Verdict };
  /** The gate blocked a call; the tool did not run. */
  "tool:blocked": { call: ToolCall; verdict: Verdict; plugin?: string; source?: PolicySource; result: ToolResult };
  /** A call ran (status `ok` or `error`). */
  "tool:after": { call: ToolCall; verdict: Verdict; result: ToolResult };
  /** Every call ends here exactly once, whatever happened. */
  "tool:end": { call: ToolCall; status: ToolResult["status"]; result: ToolResult; verdict?: Verdict };
  "hook:error": { plugin: string; hook: string; call?: ToolCall; error: Error };
  "hook:invalid": { plugin: string; hook: string; call: ToolCall; value: unknown; reason: string };
  "hook:timeout": { plugin: string; hook: string; call?: ToolCall; timeoutMs: number };
  "session:start": { session: SessionInfo };
  "session:end": { session: SessionInfo };
  /** One decided call: who decided, each participant's answer and time, the outcome where known. */
  decision: DecisionRecord;
};

export type HostEventName = keyof HostEvents;
