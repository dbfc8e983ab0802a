import type { PluginRecord, PolicySource, ToolArgs, Verdict } from "@toolgate/plugin-sdk";

/** Why every call is blocked while a plugin has failed to load or validate (`onPluginError: "block"`). */
export interface PluginFailure {
  /** Names each failed plugin, its file and the reason. */
  readonly message: string;
  /** The first failed plugin: the verdict's `plugin` and `source`. */
  readonly plugin: string;
  readonly source: PolicySource;
}

/** The failure every call is blocked with, or undefined when every plugin loaded (or failures are allowed). */
export function pluginFailureOf(records: readonly PluginRecord[], onPluginError: "block" | "allow"): PluginFailure | undefined {
  const failed = records.filter((record) => record.status === "failed");
  if (failed.length === 0 || onPluginError === "allow") return undefined;
  const causes = failed.map((record) => `plugin "${record.name}" failed to load: ${record.error ?? "unknown error"}`).join("; ");
  const until = failed.length === 1 ? "it loads" : "they load";
  const plugin = failed[0]!.name;
  return {
    message: `${causes} (every call is blocked until ${until}; onPluginError: "block")`,
    plugin,
    source: Object.freeze({ kind: "plugin", name: plugin }),
  };
}

/** The verdict on any call while `failure` holds. */
export function pluginFailureVerdict(failure: PluginFailure, args: ToolArgs): Verdict {
  return { action: "block", message: failure.message, plugin: failure.plugin, source: failure.source, args };
}
