import { readFileSync, statSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import validatePackageName from "validate-npm-package-name";

/**
 * A local folder or tarball spec (`./x`, `../x`, `/x`, `file:x`) as an absolute `file:` spec, resolved
 * from where the user typed it rather than from `--cwd`; any other spec is returned unchanged.
 */
export function normalizeSpec(spec: string): string {
  const path = localPath(spec);
  return path === undefined ? spec : `file:${resolve(path)}`;
}

/** The package name a spec installs, when the spec tells: a local folder's package.json, or `name@range`. */
export function packageNameOf(spec: string): string | undefined {
  const path = localPath(spec);
  if (path !== undefined) return readPackageName(resolve(path));
  const match = /^(@[^/@\s]+\/[^/@\s]+|[^/@\s]+)(?:@[^/\s]*)?$/.exec(spec);
  const name = match?.[1];
  return name !== undefined && validatePackageName(name).validForOldPackages ? name : undefined;
}

/** The dependency names in `cwd`'s package.json (dependencies, devDependencies, optionalDependencies). */
export function dependencyNames(cwd: string): Set<string> {
  try {
    const manifest = JSON.parse(readFileSync(join(cwd, "package.json"), "utf8")) as Record<string, Record<string, string> | undefined>;
    return new Set([manifest.dependencies, manifest.devDependencies, manifest.optionalDependencies].flatMap((map) => Object.keys(map ?? {})));
  } catch {
    return new Set();
  }
}

function localPath(spec: string): string | undefined {
  if (spec.startsWith("file:")) return spec.slice("file:".length);
  return spec.startsWith("./") || spec.startsWith("../") || spec === "." || spec === ".." || isAbsolute(spec) ? spec : undefined;
}

function readPackageName(path: string): string | undefined {
  try {
    if (!statSync(path).isDirectory()) return undefined;
    const name = (JSON.parse(readFileSync(join(path, "package.json"), "utf8")) as { name?: unknown }).name;
    return typeof name === "string" ? name : undefined;
  } catch {
    return undefined;
  }
}
