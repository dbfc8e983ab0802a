import { homedir } from "node:os";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { configFileNames } from "../discovery/config-file.js";
import type { HostSettings } from "../settings.js";
import { rotatedPathOf } from "../decisions/decision-log.js";
import type { ProtectedEntry } from "./protected-paths.js";

/**
 * Where the coding agents keep the settings that install (or turn off) toolgate's hook: the files
 * `toolgate init` writes, the local ones the agent reads beside them, and the folders whose every file is
 * read (Copilot CLI reads each `.github/hooks/*.json`; Codex's `config.toml` can turn hooks off). Kept in
 * step with each agent's `settings.file` by a test in the CLI package.
 */
export const agentSettingsPaths: readonly { path: string; label: string }[] = [
  { path: ".claude/settings.json", label: "Claude Code's settings (which run toolgate's hook)" },
  { path: ".claude/settings.local.json", label: "Claude Code's local settings (which can turn toolgate's hook off)" },
  { path: ".gemini/settings.json", label: "Gemini CLI's settings (which run toolgate's hook)" },
  { path: ".codex", label: "Codex's settings folder (which runs toolgate's hook)" },
  { path: ".github/hooks", label: "Copilot CLI's hooks folder (which runs toolgate's hook)" },
];

// The agents' user-level settings can turn every project's hooks off (`disableAllHooks`, `[features]`).
const userSettingsPaths: readonly { path: string; label: string }[] = [
  { path: ".claude/settings.json", label: "Claude Code's user settings" },
  { path: ".gemini/settings.json", label: "Gemini CLI's user settings" },
  { path: ".codex", label: "Codex's user settings folder" },
  { path: ".copilot", label: "Copilot CLI's user settings folder" },
];

/** The package names toolgate runs as: the CLI and the scope of its libraries. */
const toolgatePackages = ["toolgate", "@toolgate"];

/** Every place that holds the policy of the host `settings` describe, for `ProtectedPaths`. */
export function policyHome(settings: HostSettings, home: string): { entries: ProtectedEntry[]; names: string[]; packages: string[] } {
  const { cwd } = settings;
  const entries: ProtectedEntry[] = [];
  const add = (path: string, label: string, guardAncestors = true) => entries.push({ path: resolve(path), label, guardAncestors });
  const addManifest = (path: string) =>
    entries.push({ path, label: "package.json (which names the toolgate version and the plugins installed)", guardAncestors: true, manifest: true });
  const configDirs = new Set([cwd, ...(settings.configPath === undefined ? [] : [dirname(settings.configPath)])]);
  if (settings.configPath !== undefined) add(settings.configPath, "toolgate's config file");
  for (const dir of configDirs) {
    for (const name of configFileNames) add(join(dir, name), "a toolgate config file");
    addManifest(join(dir, "package.json"));
  }
  if (settings.pluginsDir !== false) add(settings.pluginsDir, "the plugins folder");
  add(join(cwd, ".toolgate"), "toolgate's own folder (.toolgate: the decisions log and the store)");
  addDecisionsLog(settings, add);
  if (settings.store.kind === "file") add(settings.store.dir, "the store (budgets and counters of the plugins)");
  for (const { path, label } of agentSettingsPaths) add(join(cwd, path), label);
  for (const { path, label } of userSettingsPaths) add(join(home, path), label);
  const packages = [...toolgatePackages, ...npmPluginNames(settings)];
  for (let dir = cwd; ; dir = dirname(dir)) {
    for (const name of toolgatePackages) add(join(dir, "node_modules", name), "the installed toolgate", false);
    add(join(dir, "node_modules", ".bin", "toolgate"), "the installed toolgate command", false);
    // A plugin that cannot load blocks every call, unless onPluginError is "allow": then deleting it lifts its policy.
    for (const name of npmPluginNames(settings)) add(join(dir, "node_modules", name), `the npm plugin "${name}"`, settings.onPluginError === "allow");
    if (dirname(dir) === dir) break;
  }
  for (const path of pathPlugins(settings)) add(path, "a plugin named in the config");
  for (const hook of settings.policyHooks) {
    if (hook.config.type === "cel" && hook.config.file !== undefined) add(resolve(hook.baseDir, hook.config.file), `the CEL rules of ${hook.where}`);
    if (hook.config.type !== "command") continue;
    const program = hook.config.command.trim().split(/\s/, 1)[0] ?? "";
    if (program.includes("/")) add(resolve(hook.baseDir, program), `the command of ${hook.where}`);
  }
  const names = ["toolgate", ".claude", ".gemini", ".codex", ".github", ".copilot", "package.json", ...packages, ...pluginFolderNames(settings)];
  return { entries, names, packages };
}

function addDecisionsLog(settings: HostSettings, add: (path: string, label: string) => void): void {
  const { log } = settings.decisions;
  if (typeof log !== "string") return;
  add(log, "the decisions log");
  add(rotatedPathOf(log), "the decisions log");
  add(`${log}.lock`, "the decisions log's lock");
}

function pluginFolderNames(settings: HostSettings): string[] {
  if (settings.pluginsDir === false) return [];
  const name = settings.pluginsDir.slice(settings.pluginsDir.lastIndexOf("/") + 1);
  return name === "" ? [] : [name];
}

/** The npm names in the `plugins` lists (the others are paths or inline plugins). */
function npmPluginNames(settings: HostSettings): string[] {
  return settings.pluginLists.flatMap(({ entries }) =>
    entries
      .map((entry) => (Array.isArray(entry) ? entry[0] : entry))
      .filter((specifier): specifier is string => typeof specifier === "string" && !isPath(specifier)),
  );
}

function pathPlugins(settings: HostSettings): string[] {
  return settings.pluginLists.flatMap(({ entries, baseDir }) =>
    entries
      .map((entry) => (Array.isArray(entry) ? entry[0] : entry))
      .filter((specifier): specifier is string => typeof specifier === "string" && isPath(specifier))
      .map((specifier) => resolve(baseDir, specifier)),
  );
}

function isPath(specifier: string): boolean {
  return specifier.startsWith(".") || isAbsolute(specifier);
}

/** The paths of `policyHome`, for plugins (`api.policyPaths`): what a sandbox keeps read-only. */
export function policyPathsOf(settings: HostSettings): readonly string[] {
  return Object.freeze([...new Set(policyHome(settings, homedir()).entries.map((entry) => entry.path))]);
}
