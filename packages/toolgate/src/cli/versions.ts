import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { packageRoot } from "./package-root.js";

const require = createRequire(import.meta.url);

/** Set by scripts/bundle.mjs in the built CLI, which then need not find and read package.json on every start. */
declare const TOOLGATE_HOST_VERSION: string | undefined;

/** The version of this package, toolgate (released in step with @toolgate/host). */
export function hostVersion(): string {
  return typeof TOOLGATE_HOST_VERSION === "string" ? TOOLGATE_HOST_VERSION : readVersion(join(packageRoot(), "package.json"));
}

/** The version of the @toolgate/plugin-sdk this host is installed with, read at run time. */
export function sdkVersion(): string {
  return readVersion(require.resolve("@toolgate/plugin-sdk/package.json"));
}

/** `^major.minor.0`: the range of releases compatible with `version` (for 0.x, the same minor). */
export function compatibleRange(version: string): string {
  const [major = "0", minor = "0"] = version.split(".");
  return `^${major}.${minor}.0`;
}

function readVersion(path: string): string {
  return (JSON.parse(readFileSync(path, "utf8")) as { version: string }).version;
}
