import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { generateCode, parseModule, type ProxifiedModule } from "magicast";
import { getDefaultExportOptions } from "magicast/helpers";
import { findConfigFile } from "@toolgate/host/internal";
import { describeThrown } from "@toolgate/host/internal";
import { CliError, exitCodes } from "../cli-error.js";

/*
 * Editing the user's config goes through magicast (unjs; what nuxi and other unjs CLIs use to edit
 * config files): it parses the file with Babel, changes the `plugins` array in the AST and prints it
 * back with recast, so comments, formatting and everything else in the file are kept, and it
 * understands both `export default {...}` and `export default defineConfig({...})`. A regex could not
 * tell a `plugins` key from one in a comment or a nested object. magicast declares no `engines` and
 * runs on Node 20 (its only dependencies are @babel/parser, @babel/types and source-map-js).
 */

export interface ConfigUpdate {
  /** created: a new toolgate.config.mjs; added: appended to `plugins`; present: it was there already. */
  change: "created" | "added" | "present";
  path: string;
}

/** Adds `name` to `plugins` in the project's toolgate.config.*, or creates toolgate.config.mjs. */
export async function addPluginToConfig(cwd: string, name: string): Promise<ConfigUpdate> {
  const existing = projectConfigFile(cwd);
  if (existing !== undefined) return { change: await addToExistingConfig(existing, name), path: existing };
  const path = join(cwd, "toolgate.config.mjs");
  await writeFile(path, `export default { plugins: [${JSON.stringify(name)}] };\n`, { flag: "wx" });
  return { change: "created", path };
}

/** The project's toolgate.config.*, if any; two of them is an error (the host refuses to choose, and so does an edit). */
export function projectConfigFile(cwd: string): string | undefined {
  try {
    return findConfigFile(cwd, undefined);
  } catch (error) {
    throw new CliError(describeThrown(error), exitCodes.failure);
  }
}

async function addToExistingConfig(path: string, name: string): Promise<"added" | "present"> {
  const fail = (reason: string) => new CliError(`cannot edit ${path}: ${reason}; add "${name}" to its plugins list yourself`, exitCodes.failure);
  let module: ProxifiedModule;
  let original: string;
  try {
    original = await readFile(path, "utf8");
    module = parseModule(original, { sourceFileName: path });
  } catch (error) {
    throw fail(describeThrown(error));
  }
  const config = defaultExportObject(module);
  if (config === undefined) throw fail(`its default export is not an object literal or defineConfig({ ... })`);
  // Assigning a plain array makes magicast write an array literal; reading it back gives its proxy.
  config.plugins ??= [] as unknown as ListProxy;
  const plugins = config.plugins;
  if (plugins.$type !== "array") throw fail("its plugins value is not an array literal");
  if (pluginNames(plugins).includes(name)) return "present";
  plugins.push(name);
  await writeFile(path, withFinalNewlineOf(original, generateCode(module).code));
  return "added";
}

/** recast prints the file without the final newline it had: the edit keeps the file's own ending. */
export function withFinalNewlineOf(original: string, code: string): string {
  const ending = /\r?\n$/.exec(original)?.[0] ?? "";
  return code.replace(/\r?\n$/, "") + ending;
}

/** The parts of magicast's proxy of the config object that this module touches. */
interface ConfigProxy {
  $type: string;
  plugins?: ListProxy;
}

interface ListProxy {
  $type: string;
  length: number;
  [index: number]: unknown;
  push(entry: string): number;
}

export function defaultExportObject(module: ProxifiedModule): ConfigProxy | undefined {
  try {
    const options = getDefaultExportOptions(module) as ConfigProxy | undefined;
    return options?.$type === "object" ? options : undefined;
  } catch {
    return undefined;
  }
}

/** The package or path each entry names: `"x"` and `["x", options]` both name `x`. */
function pluginNames(plugins: ListProxy): unknown[] {
  const names: unknown[] = [];
  for (let index = 0; index < plugins.length; index++) {
    const entry = plugins[index] as ListProxy | string;
    names.push(typeof entry === "object" && entry?.$type === "array" ? entry[0] : entry);
  }
  return names;
}
