import { createHost, type Host, type Plugin, type ToolCall } from "@toolgate/host";
import type { Contender } from "./baselines.js";

/**
 * Whether the protection of toolgate's own policy runs: "on" (the default, it asks the file system about
 * `README.md`) or "off" (the gate alone, on which the gate's targets are judged).
 */
export type Protection = "on" | "off";

/** A real host with only these plugins and a `noop` tool: no folder discovery, no config file, no logging. */
export async function createBenchHost(
  plugins: Plugin[],
  execute: (args: ToolCall["args"]) => unknown = () => "done",
  protection: Protection = "on",
): Promise<Host> {
  const protectPolicy = protection === "off" ? ("off" as const) : ("block" as const);
  const host = await createHost({ plugins, pluginsDir: false, configFile: false, logger: false, protectPolicy, tools: { noop: { execute } } });
  const failed = host.plugins.filter((plugin) => plugin.status !== "loaded");
  if (failed.length > 0) throw new Error(`bench plugins failed to load: ${failed.map((plugin) => `${plugin.name}: ${plugin.error}`).join("; ")}`);
  return host;
}

/** The gate alone, as a host that runs its own tools uses it. */
export function toolgate(host: Host): Contender {
  return {
    name: "toolgate",
    run: (call: ToolCall) => host.checkToolCall(call),
    blocked: (verdict) => (verdict as Awaited<ReturnType<Host["checkToolCall"]>>).action === "block",
  };
}
