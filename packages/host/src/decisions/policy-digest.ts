import type { PluginRecord } from "@toolgate/plugin-sdk";
import type { PluginRegistry } from "../registry/registry.js";
import type { HostSettings } from "../settings.js";
import { canonicalJson, sha256 } from "./digests.js";

const digestLength = "sha256:".length + 16;

/**
 * A short digest of the policy in force: the plugins (name, version, options), the ones that failed to
 * load, the permission rules and the configured hooks. Two records with the same digest were decided by
 * the same policy; a changed option or rule changes it.
 */
export function policyDigest(
  registry: PluginRegistry,
  records: readonly PluginRecord[],
  settings: Pick<HostSettings, "permissions" | "shadowPermissions" | "policyHooks">,
): string {
  const policy = {
    plugins: registry.plugins.map(({ plugin, options, shadow }) =>
      shadow === true
        ? { name: plugin.name, version: plugin.version ?? null, options, shadow }
        : { name: plugin.name, version: plugin.version ?? null, options },
    ),
    failed: records.filter((record) => record.status === "failed").map((record) => record.name),
    permissions: settings.permissions,
    shadowPermissions: settings.shadowPermissions,
    hooks: settings.policyHooks.map(({ event, config }) => ({ event, config })),
  };
  return sha256(canonicalJson(policy)).slice(0, digestLength);
}
