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
    const reason = `could not load the module: ${describeLoadError(error)}`;
    return { ok: false, error: new ToolgateError("PLUGIN_LOAD_FAILED", reason, { path, cause: error }) };
  }
  const value = namespace.default ?? namespace.plugin;
  if (value === undefined) {
    const reason = "the module has no default export and no `plugin` export";
    return { ok: false, error: new ToolgateError("PLUGIN_NO_EXPORT", reason, { path }) };
  }
  return { ok: true, value };
}

/** jiti puts the position of a syntax error on a second line (`/path/file.ts:3:26`); keep it on one. */
function describeLoadError(error: unknown): string {
  const summary = describeThrown(error).replace(/\s+/g, " ").trim();
  const position = error instanceof Error ? /:(\d+):(\d+)\s*$/m.exec(error.message.split("\n").slice(1).join("\n")) : null;
  return position ? `${summary} (line ${position[1]}, column ${position[2]})` : summary;
}
