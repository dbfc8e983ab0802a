import { existsSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";

export interface PackageManifest {
  name?: string;
  version?: string;
  main?: string;
  exports?: unknown;
  keywords?: string[];
}

export type EntryResolution =
  | { ok: true; path: string; manifest?: PackageManifest }
  | { ok: false; reason: string };

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
  if (!existsSync(manifestPath)) return fromIndexFile(dir, indexFiles);
  let manifest: PackageManifest;
  try {
    manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as PackageManifest;
  } catch (error) {
    const detail = (error as Error).message.split("\n")[0]?.trim();
    return { ok: false, reason: `${manifestPath} is not valid JSON (${detail})` };
  }
  const declared = entryFromExports(manifest.exports) ?? manifest.main;
  if (declared !== undefined && isFile(resolve(dir, declared))) return { ok: true, path: resolve(dir, declared), manifest };
  // A package whose declared entry is not built yet (dist/) still loads from its TypeScript source.
  const fallback = fromIndexFile(dir, ["src/index.ts", ...indexFiles]);
  if (fallback.ok) return { ...fallback, manifest };
  if (declared === undefined) return fallback;
  return { ok: false, reason: `${manifestPath} names the entry "${declared}", which does not exist, and there is no src/index.ts (build the package?)` };
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
