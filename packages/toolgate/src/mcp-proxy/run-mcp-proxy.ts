import type { HostLogger } from "@toolgate/host";
import { runRawProxy } from "./raw-proxy.js";
import { runSdkProxy } from "./sdk-proxy.js";
import type { UpstreamTarget } from "./upstream.js";

export interface McpProxyOptions {
  /** Where the plugins and the config are found. */
  cwd: string;
  target: UpstreamTarget;
  logger: HostLogger;
  /** This proxy's version, as the client info it shows the upstream. */
  version: string;
}

/**
 * Serves MCP on stdio in front of the upstream until either side goes away, and resolves with the exit
 * code: 0 when the client disconnects, 1 when the upstream dies or the client's stream breaks. The
 * upstream is started when the client's first message (initialize) has arrived. Rejects
 * with `MCP_UPSTREAM_FAILED` when the upstream cannot be started or reached.
 *
 * A stdio upstream is relayed line by line (`RawRelay`: each message parsed once, passed on as it
 * came); an HTTP upstream goes through the MCP SDK's client and server. So does a stdio upstream on
 * Windows, where the SDK's spawn (cross-spawn) finds `npx.cmd` and the like, which a plain spawn does not.
 */
export function runMcpProxy(options: McpProxyOptions): Promise<number> {
  const { target } = options;
  return "url" in target || process.platform === "win32" ? runSdkProxy(options) : runRawProxy(options, target);
}
