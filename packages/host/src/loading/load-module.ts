import { describeThrown, ToolgateError } from "../errors.js";
import { importModule } from "./import-module.js";

export type ModuleLoad = { ok: true; value: unknown } | { ok: false; error: ToolgateError };

/**
 * Imports a plugin module (TypeScript or JavaScript, ESM or CommonJS) and returns the plugin it exports:
 * the default export, or else a named `plugin` export. A module exporting one plugin under both names
 * therefore yields it once.
 */
export async function loadPluginModule(path: string): Promise<ModuleLoad> {
  let namespace: Record<string, unknown>;
  try {
    namespace = await importModule(path);
  } catch (error) {
    const reason = `could not load the module: ${describeThrown(error)}`;
    return { ok: false, error: new ToolgateError("PLUGIN_LOAD_FAILED", reason, { path, cause: error }) };
  }
  const value = namespace?.default ?? namespace?.plugin;
  if (value === undefined) {
    const reason = "the module has no default export and no `plugin` export";
    return { ok: false, error: new ToolgateError("PLUGIN_NO_EXPORT", reason, { path }) };
  }
  return { ok: true, value };
}
