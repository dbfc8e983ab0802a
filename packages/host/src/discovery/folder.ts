import fastGlob from "fast-glob";
import { basename, join } from "node:path";
import { ToolgateError } from "../errors.js";
import { isPluginFolder, resolvePackageEntry } from "./package-entry.js";
import type { PluginSource } from "./plugin-source.js";

const moduleFiles = "*.{ts,mts,js,mjs}";
const skippedFiles = ["*.test.*", "*.spec.*", "*.d.ts", "*.d.mts"];

/**
 * Every plugin directly in `dir`: module files, and folders with a package.json or an index file.
 * Hidden entries, `node_modules`, tests and declaration files are skipped; the order is stable.
 */
export async function discoverFolderPlugins(dir: string): Promise<PluginSource[]> {
  const options = { cwd: dir, absolute: true, dot: false, deep: 1, ignore: [...skippedFiles, "node_modules"] };
  const [files, folders] = await Promise.all([fastGlob(moduleFiles, { ...options, onlyFiles: true }), fastGlob("*", { ...options, onlyDirectories: true })]);
  const fileSources = files.map((path): PluginSource => ({ origin: "folder", label: path, path, options: {} }));
  const folderSources = folders.filter(isPluginFolder).map(folderSource);
  return [...fileSources, ...folderSources].sort((a, b) => (a.path ?? "").localeCompare(b.path ?? ""));
}

function folderSource(dir: string): PluginSource {
  const entry = resolvePackageEntry(dir);
  if (entry.ok) return { origin: "folder", label: entry.manifest?.name ?? dir, path: entry.path, options: {} };
  const error = new ToolgateError("PLUGIN_NOT_FOUND", entry.reason, { path: join(dir, "package.json") });
  return { origin: "folder", label: basename(dir), path: dir, options: {}, error };
}
