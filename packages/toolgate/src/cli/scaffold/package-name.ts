import validatePackageName from "validate-npm-package-name";
import { CliError, exitCodes } from "../cli-error.js";

const conventionPrefix = "toolgate-plugin-";

/** Throws a usage error when `name` cannot be published as a new npm package; says why. */
export function assertValidPackageName(name: string): void {
  const result = validatePackageName(name);
  if (result.validForNewPackages) return;
  const reasons = [...(result.errors ?? []), ...(result.warnings ?? [])];
  throw new CliError(`invalid package name "${name}": ${reasons.join("; ")}`, exitCodes.usage);
}

/** A warning when `name` does not follow `toolgate-plugin-*` or `@scope/toolgate-plugin-*`, else undefined. */
export function namingConventionWarning(name: string): string | undefined {
  if (unscoped(name).startsWith(conventionPrefix) && unscoped(name).length > conventionPrefix.length) return undefined;
  return `"${name}" does not follow the naming convention toolgate-plugin-<name> or @scope/toolgate-plugin-<name>, which is how people find toolgate plugins on npm`;
}

/** The plugin's runtime `name`: the package name without its scope and the `toolgate-plugin-` prefix. */
export function pluginNameOf(packageName: string): string {
  const name = unscoped(packageName);
  return name.startsWith(conventionPrefix) && name.length > conventionPrefix.length ? name.slice(conventionPrefix.length) : name;
}

/** The folder the package is written to: its name without the scope (`@acme/x` → `x`). */
export function folderNameOf(packageName: string): string {
  return unscoped(packageName);
}

function unscoped(name: string): string {
  return name.startsWith("@") ? name.slice(name.indexOf("/") + 1) : name;
}
