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
    hooks: settings.policyHooks.map(({ event, config }) => ({ event, config })),
  };
  // Only when there are any: a policy without shadow rules keeps the digest it had before shadow mode.
  const { deny = [], ask = [], allow = [] } = settings.shadowPermissions;
  const withShadow = deny.length + ask.length + allow.length > 0 ? { ...policy, shadowPermissions: settings.shadowPermissions } : policy;
  return sha256(canonicalJson(withShadow)).slice(0, digestLength);
}
