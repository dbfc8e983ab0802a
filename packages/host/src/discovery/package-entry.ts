import { isPlainObject } from "@toolgate/plugin-sdk/host";
import { existsSync, readFileSync, realpathSync, statSync } from "node:fs";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { describeType } from "../validation/describe-type.js";

export interface PackageManifest {
  name?: string;
  version?: string;
  main?: string;
  exports?: unknown;
  keywords?: string[];
}

export type EntryResolution = { ok: true; path: string; manifest?: PackageManifest } | { ok: false; reason: string };

const exportConditions = ["import", "node", "default", "require"];
const indexFiles = ["index.ts", "index.mts", "index.js", "index.mjs"];

/** True when `dir` looks like a plugin folder: a package.json or an index file. */
export function isPluginFolder(dir: string): boolean {
  return existsSync(join(dir, "package.json")) || indexFiles.some((file) => existsSync(join(dir, file)));
}

/**
 * The module to load for a plugin folder: package.json `exports` (".") or `main` if that file exists,
 * else `src/index.ts`, else an index file at the top.
 */
export function resolvePackageEntry(dir: string): EntryResolution {
  const manifestPath = join(dir, "package.json");
  if (!existsSync(manifestPath)) return contained(dir, fromIndexFile(dir, indexFiles));
  const read = readManifest(manifestPath);
  if (!read.ok) return read;
  const { manifest } = read;
  const declared = entryFromExports(manifest.exports) ?? manifest.main;
  if (declared !== undefined && isFile(resolve(dir, declared)))
    return contained(dir, { ok: true, path: resolve(dir, declared), manifest }, `${manifestPath} names the entry "${declared}"`);
  // A package whose declared entry is not built yet (dist/) still loads from its TypeScript source.
  const fallback = fromIndexFile(dir, ["src/index.ts", ...indexFiles]);
  if (fallback.ok) return contained(dir, { ...fallback, manifest });
  if (declared === undefined) return fallback;
  return { ok: false, reason: `${manifestPath} names the entry "${declared}", which does not exist, and there is no src/index.ts (build the package?)` };
}

function readManifest(manifestPath: string): { ok: true; manifest: PackageManifest } | { ok: false; reason: string } {
  let manifest: unknown;
  try {
    manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
  } catch (error) {
    const detail = (error as Error).message.split("\n")[0]?.trim();
    return { ok: false, reason: `${manifestPath} is not valid JSON (${detail})` };
  }
  if (!isPlainObject(manifest)) return { ok: false, reason: `${manifestPath} must hold a JSON object, got ${describeType(manifest)}` };
  for (const field of ["name", "version", "main"] as const) {
    const value = manifest[field];
    if (value !== undefined && typeof value !== "string")
      return { ok: false, reason: `${manifestPath}: "${field}" must be a string, got ${describeType(value)}` };
  }
  return { ok: true, manifest: manifest as PackageManifest };
}

/**
 * The entry must lie inside the package folder, symlinks followed: a package.json cannot point the host
 * at a file elsewhere on the machine (`"main": "../../other/index.js"`).
 */
function contained(dir: string, resolution: EntryResolution, naming = `the entry module`): EntryResolution {
  if (!resolution.ok) return resolution;
  const inside = relative(realpathSync(dir), realpathSync(resolution.path));
  if (inside !== "" && inside !== ".." && !inside.startsWith(`..${sep}`) && !isAbsolute(inside)) return resolution;
  return { ok: false, reason: `${naming} resolves to ${resolution.path}, outside the package folder ${dir}` };
}

function fromIndexFile(dir: string, candidates: string[]): EntryResolution {
  for (const candidate of candidates) {
    const path = join(dir, candidate);
    if (isFile(path)) return { ok: true, path };
  }
  return { ok: false, reason: `${dir} has no entry module (tried ${candidates.join(", ")})` };
}

function entryFromExports(exports: unknown): string | undefined {
  if (typeof exports === "string") return exports;
  if (typeof exports !== "object" || exports === null || Array.isArray(exports)) return undefined;
  const map = exports as Record<string, unknown>;
  const isSubpathMap = Object.keys(map).some((key) => key.startsWith("."));
  return pickCondition(isSubpathMap ? map["."] : map);
}

function pickCondition(target: unknown): string | undefined {
  if (typeof target === "string") return target;
  if (typeof target !== "object" || target === null) return undefined;
  const conditions = target as Record<string, unknown>;
  for (const condition of exportConditions) {
    const picked = condition in conditions ? pickCondition(conditions[condition]) : undefined;
    if (picked !== undefined) return picked;
  }
  return undefined;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
