import { readdirSync, statSync, type Dirent, type Stats } from "node:fs";
import { basename, join } from "node:path";
import { ToolgateError } from "../errors.js";
import { isPluginFolder, resolvePackageEntry } from "./package-entry.js";
import type { PluginSource } from "./plugin-source.js";

const moduleFile = /\.(ts|mts|js|mjs)$/;
const skipped = /\.(test|spec)\.|\.d\.m?ts$/;

/**
 * Every plugin directly in `dir`: module files, and folders with a package.json or an index file.
 * Hidden entries, `node_modules`, tests and declaration files are skipped; the order is stable.
 * One synchronous readdir, no glob library: this runs on every start-up, where a glob engine (or
 * node:fs/promises) costs more to load than the whole scan.
 */
export async function discoverFolderPlugins(dir: string): Promise<PluginSource[]> {
  const entries = listEntries(dir);
  const sources: PluginSource[] = [];
  for (const entry of entries) {
    if (entry.name.startsWith(".") || entry.name === "node_modules" || skipped.test(entry.name)) continue;
    const path = join(dir, entry.name);
    const kind = entryKind(entry, path);
    if (kind === "file" && moduleFile.test(entry.name)) sources.push({ origin: "folder", label: path, path, options: {} });
    else if (kind === "folder" && isPluginFolder(path)) sources.push(folderSource(path));
  }
  return sources.sort((a, b) => comparePaths(a.path ?? "", b.path ?? ""));
}

/**
 * By code unit, as the registry orders names: the same on every machine, where `localeCompare`
 * depends on the locale, and its first call loads ICU's collator (~6 ms of every start-up).
 */
function comparePaths(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function listEntries(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}

/** A symbolic link counts as what it points to; a dangling one as nothing. */
function entryKind(entry: Dirent, path: string): "file" | "folder" | undefined {
  if (entry.isFile()) return "file";
  if (entry.isDirectory()) return "folder";
  if (!entry.isSymbolicLink()) return undefined;
  let target: Stats;
  try {
    target = statSync(path);
  } catch {
    return undefined;
  }
  if (target.isFile()) return "file";
  return target.isDirectory() ? "folder" : undefined;
}

function folderSource(dir: string): PluginSource {
  const entry = resolvePackageEntry(dir);
  if (entry.ok) return { origin: "folder", label: entry.manifest?.name ?? dir, path: entry.path, options: {} };
  const error = new ToolgateError("PLUGIN_NOT_FOUND", entry.reason, { path: join(dir, "package.json") });
  return { origin: "folder", label: basename(dir), path: dir, options: {}, error };
}
