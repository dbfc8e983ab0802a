import { PermissionRules } from "@toolgate/host/internal";
import { resolveSettings } from "@toolgate/host/internal";

/** Whether a deny rule forbids the tool whatever its arguments: `tools/list` hides such a tool. */
export type DeniedOutright = (toolName: string) => boolean;

export const noneDeniedOutright: DeniedOutright = () => false;

/**
 * The project's deny rules that name a tool with no argument condition (`permissions: { deny: ["exit",
 * "delete_*"] }`): the model need not see a tool it can never call. A rule with a condition
 * (`write_file:path=/etc/*`) hides nothing; the gate still blocks its calls one by one. The config is
 * read again here (the host keeps its rules to itself); a config that cannot be read hides nothing, and
 * the host that failed on it denies every call anyway.
 */
export async function loadDeniedOutright(cwd: string): Promise<DeniedOutright> {
  let deny: readonly string[];
  try {
    deny = (await resolveSettings({ cwd })).permissions.deny ?? [];
  } catch {
    return noneDeniedOutright;
  }
  if (deny.length === 0) return noneDeniedOutright;
  const rules = new PermissionRules({ deny });
  // With no arguments, a rule with any argument condition cannot match: only the bare tool globs do.
  return (toolName) => rules.check(toolName, {}) !== undefined;
}
