import type { Host } from "../create-host.js";

/**
 * Whether a deny rule forbids the tool whatever its arguments, so `tools/list` can hide it from the
 * client. The seam for permission rules (`permissions.deny` entries with a tool glob and no argument
 * condition); until they exist no tool is denied outright and every tool is listed. A tool that is
 * listed can still be blocked call by call by the plugins.
 */
export function isToolDeniedOutright(_host: Host, _name: string): boolean {
  return false;
}
