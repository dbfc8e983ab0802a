import type { ToolDefinition } from "@toolgate/plugin-sdk";
import type { Host } from "@toolgate/host";
import { describeThrown } from "@toolgate/host/internal";
import type { HostLogger } from "@toolgate/host";
import { createRecordingHost } from "../cli/open-host.js";
import { loadDeniedOutright, noneDeniedOutright, type DeniedOutright } from "./denied-outright.js";

/**
 * The project's plugins, ready to gate, or why they are not (a config that does not load). A broken policy does not stop the proxy:
 * it keeps serving (lists, resources, prompts) and denies every tool call with `reason`, so the user
 * sees the cause in the client instead of a server that vanished.
 */
export type Policy = ({ ok: true; host: Host } | { ok: false; reason: string; host?: Host }) & {
  /** The tools `tools/list` hides: a deny rule forbids them whatever their arguments. */
  deniedOutright: DeniedOutright;
};

export interface PolicyOptions {
  cwd: string;
  tools: Record<string, ToolDefinition>;
  logger: HostLogger;
}

export async function openPolicy(options: PolicyOptions): Promise<Policy> {
  let host: Host;
  try {
    host = await createRecordingHost({ cwd: options.cwd, tools: options.tools, logger: options.logger }, "mcp-proxy");
  } catch (error) {
    return { ok: false, reason: `the toolgate config could not be loaded: ${describeThrown(error)}`, deniedOutright: noneDeniedOutright };
  }
  const deniedOutright = await loadDeniedOutright(options.cwd);
  // A plugin that failed to load is the host's to answer (onPluginError): its gate blocks every call
  // with the cause, in the same words as every other surface.
  return { ok: true, host, deniedOutright };
}
