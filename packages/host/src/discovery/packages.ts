import type { PluginOptions } from "@toolgate/plugin-sdk";
import { existsSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { ToolgateError } from "../errors.js";
import { closestInstalledPackage } from "./closest-package.js";
import type { PluginEntry, PluginHostSettings, PluginSpecifier } from "../options.js";
import { resolvePackageEntry } from "./package-entry.js";
import type { PluginSource } from "./plugin-source.js";

/**
 * Turns the `plugins` list into sources: npm names are resolved from `cwd` (never by crawling
 * node_modules), paths from `baseDir`, inline plugins are kept as they are.
 */
export function resolvePluginEntries(entries: readonly PluginEntry[], cwd: string, baseDir: string): PluginSource[] {
  return entries.map((entry, index) => {
    const [specifier, options, settings] = splitEntry(entry);
    const source: PluginSource =
      typeof specifier !== "string"
        ? { origin: "inline", label: `inline plugin #${index + 1}`, value: specifier, options }
        : isPathSpecifier(specifier)
          ? resolvePathSource(resolve(baseDir, specifier), specifier, options)
          : resolveNpmSource(specifier, cwd, options);
    if (settings.isolation === "worker") source.isolation = "worker";
    if (settings.shadow === true) source.shadow = true;
    return source;
  });
}

function splitEntry(entry: PluginEntry): [PluginSpecifier, PluginOptions, PluginHostSettings] {
  return Array.isArray(entry) ? [entry[0], entry[1] ?? {}, entry[2] ?? {}] : [entry as PluginSpecifier, {}, {}];
}

function isPathSpecifier(specifier: string): boolean {
  return specifier.startsWith(".") || specifier.startsWith("/") || isAbsolute(specifier);
}

function resolvePathSource(path: string, label: string, options: PluginOptions): PluginSource {
  if (!existsSync(path)) {
    const error = new ToolgateError("PLUGIN_NOT_FOUND", `no file or folder at ${path}`, { path });
    return { origin: "config", label, path, options, error };
  }
  if (!statSync(path).isDirectory()) return { origin: "config", label, path, options };
  const entry = resolvePackageEntry(path);
  if (entry.ok) return { origin: "config", label: entry.manifest?.name ?? label, path: entry.path, options };
  return { origin: "config", label, path, options, error: new ToolgateError("PLUGIN_NOT_FOUND", entry.reason, { path }) };
}

// npm's rules for a package name (old mixed-case names included): an optional `@scope/`, then a name that
// does not start with a dot or underscore. No other slash, so no `..` segment, can leave node_modules.
const npmPackageName = /^(?:@[a-z0-9~-][a-z0-9._~-]*\/)?[a-z0-9~-][a-z0-9._~-]*$/i;
const maxPackageNameLength = 214;

function resolveNpmSource(name: string, cwd: string, options: PluginOptions): PluginSource {
  if (!npmPackageName.test(name) || name.length > maxPackageNameLength) {
    const reason = `"${name}" is not a valid npm package name (a path must start with "./", "../" or "/")`;
    return { origin: "npm", label: name, options, error: new ToolgateError("PLUGIN_NOT_FOUND", reason) };
  }
  const packageDir = findInstalledPackage(name, cwd);
  if (!packageDir) {
    const suggestion = closestInstalledPackage(name, cwd);
    // Never `npm install <name>`: a misspelt name may be a squatter's package, and the line would install it.
    const hint =
      suggestion === undefined ? "check the name; a plugin package is installed with the project's package manager" : `did you mean "${suggestion}"?`;
    const reason = `npm package "${name}" is not installed in ${cwd} (${hint})`;
    return { origin: "npm", label: name, options, error: new ToolgateError("PLUGIN_NOT_FOUND", reason) };
  }
  const entry = resolvePackageEntry(packageDir);
  if (entry.ok) return { origin: "npm", label: name, path: entry.path, options };
  const error = new ToolgateError("PLUGIN_NOT_FOUND", `npm package "${name}": ${entry.reason}`, { path: packageDir });
  return { origin: "npm", label: name, path: packageDir, options, error };
}

/** Node's lookup: `node_modules/<name>` in `cwd` and each folder above it. */
function findInstalledPackage(name: string, cwd: string): string | undefined {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", name);
    if (existsSync(join(candidate, "package.json"))) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}
