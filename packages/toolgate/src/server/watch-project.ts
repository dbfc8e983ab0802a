import { existsSync, watch, type FSWatcher } from "node:fs";
import { basename, dirname, join, sep } from "node:path";

const configFileName = /^toolgate\.config\.(ts|mts|js|mjs|json|ya?ml)$/;

export interface WatchOptions {
  cwd: string;
  /** Files of the loaded plugins (from `host.plugins[i].path`): their folders are watched too. */
  pluginFiles: readonly (string | undefined)[];
  /** @default 100 */
  debounceMs?: number;
  onChange: () => void;
}

/**
 * Calls `onChange` (debounced) when a plugin or the config may have changed: `plugins/` recursively (also
 * when it is created after the start), the folder of every plugin file loaded from elsewhere, and config
 * files in the project folder.
 */
export function watchProject(options: WatchOptions): () => void {
  const { cwd, onChange } = options;
  let timer: NodeJS.Timeout | undefined;
  const changed = () => {
    clearTimeout(timer);
    timer = setTimeout(onChange, options.debounceMs ?? 100);
  };
  const watchers = new Set<FSWatcher>();
  const add = (folder: string, recursive: boolean, accepts: (name: string) => boolean): FSWatcher | undefined => {
    if (!existsSync(folder)) return undefined;
    try {
      const watcher = watch(folder, { recursive }, (_event, file) => {
        const name = file?.toString() ?? "";
        if (!name.split(/[\\/]/).includes("node_modules") && accepts(basename(name))) changed();
      });
      watcher.on("error", () => {});
      watchers.add(watcher);
      return watcher;
    } catch {
      // A folder that cannot be watched only means no reload from it.
      return undefined;
    }
  };
  const pluginsDir = join(cwd, "plugins");
  const files = options.pluginFiles.filter((file): file is string => file !== undefined && !file.includes(`${sep}node_modules${sep}`));
  const inProject = new Set(files.filter((file) => dirname(file) === cwd).map((file) => basename(file)));
  let pluginsWatcher: FSWatcher | undefined;
  // plugins/ may be created (or replaced) after the start: the project folder's watcher sees its name,
  // and the folder is watched from then on, before the reload that follows reads it.
  const watchPlugins = () => {
    if (pluginsWatcher !== undefined) {
      pluginsWatcher.close();
      watchers.delete(pluginsWatcher);
    }
    pluginsWatcher = add(pluginsDir, true, () => true);
  };
  add(cwd, false, (name) => {
    if (name === "plugins") {
      watchPlugins();
      return true;
    }
    return configFileName.test(name) || inProject.has(name);
  });
  watchPlugins();
  const elsewhere = new Set(
    files.map((file) => dirname(file)).filter((folder) => folder !== cwd && folder !== pluginsDir && !folder.startsWith(`${pluginsDir}${sep}`)),
  );
  for (const folder of elsewhere) add(folder, false, () => true);
  return () => {
    clearTimeout(timer);
    for (const watcher of watchers) watcher.close();
  };
}
