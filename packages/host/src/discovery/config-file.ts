import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import { isPlainObject } from "@toolgate/plugin-sdk/host";
import * as v from "valibot";
import { describeThrown, ToolgateError } from "../errors.js";
import { importModule } from "../loading/import-module.js";
import { ConfigSchema, type ToolgateConfig } from "../options.js";
import { describeType } from "../validation/describe-type.js";
import { summarizeIssues } from "../schema-messages/summarize-issues.js";

export const configFileNames = [
  "toolgate.config.ts",
  "toolgate.config.mts",
  "toolgate.config.js",
  "toolgate.config.mjs",
  "toolgate.config.json",
  "toolgate.config.yaml",
  "toolgate.config.yml",
];

export interface LoadedConfig {
  path: string;
  /** The folder relative paths in the config resolve from. */
  dir: string;
  config: ToolgateConfig;
}

/**
 * The config file to use: the one named, none (`false`), or the `toolgate.config.*` in `cwd`. Two of them
 * (`toolgate.config.ts` and `toolgate.config.json`) is an error naming both, never a silent choice: the
 * second may be one an agent wrote to replace the policy, and every surface then blocks every call.
 */
export function findConfigFile(cwd: string, explicit: string | false | undefined): string | undefined {
  if (explicit === false) return undefined;
  if (explicit !== undefined) return resolve(cwd, explicit);
  const found = configFileNames.map((name) => resolve(cwd, name)).filter((path) => existsSync(path));
  if (found.length > 1)
    throw new ToolgateError(
      "INVALID_CONFIG",
      `${found.length} config files in ${cwd}: ${found.map((path) => basename(path)).join(" and ")}; toolgate will not choose one, so every tool call is blocked until a human removes all but one (or names one with the configFile option)`,
      { path: found[0]! },
    );
  return found[0];
}

/** Loads and validates a config file; throws an error naming the file and the bad key. */
export async function loadConfigFile(path: string): Promise<LoadedConfig> {
  const where = basename(path);
  if (!existsSync(path)) throw new ToolgateError("CONFIG_LOAD_FAILED", `config file ${path} does not exist`, { path });
  const exported = isDataFile(path) ? await readDataFile(path, where) : await importDefault(path, where);
  let parsed: ReturnType<typeof v.safeParse<typeof ConfigSchema>>;
  try {
    parsed = v.safeParse(ConfigSchema, exported);
  } catch (error) {
    throw new ToolgateError("INVALID_CONFIG", `${where} (${path}): reading the config threw: ${describeThrown(error)}`, { path, cause: error });
  }
  if (!parsed.success) throw new ToolgateError("INVALID_CONFIG", `${where} (${path}) is invalid: ${summarizeIssues(parsed.issues)}`, { path });
  return { path, dir: dirname(path), config: parsed.output as ToolgateConfig };
}

/** A JSON or YAML config: read as data, never run. */
export function isDataFile(path: string): boolean {
  return /\.(json|ya?ml)$/i.test(path);
}

/** A JSON or YAML config (for operators who write no code): one object, the same schema as a module's export. */
async function readDataFile(path: string, where: string): Promise<unknown> {
  let value: unknown;
  try {
    const text = readFileSync(path, "utf8");
    // The YAML parser is imported only for a YAML config: most projects never pay for it.
    value = /\.json$/i.test(path) ? JSON.parse(text) : (await import("yaml")).parse(text);
  } catch (error) {
    throw new ToolgateError("CONFIG_LOAD_FAILED", `${where} (${path}) could not be parsed: ${describeThrown(error)}`, { path, cause: error });
  }
  if (!isPlainObject(value))
    throw new ToolgateError("INVALID_CONFIG", `${where} (${path}) holds ${describeType(value)}; it must hold one object of config keys`, { path });
  return value;
}

async function importDefault(path: string, where: string): Promise<unknown> {
  let namespace: Record<string, unknown>;
  try {
    namespace = await importModule(path);
  } catch (error) {
    throw new ToolgateError("CONFIG_LOAD_FAILED", `${where} (${path}) could not be loaded: ${describeThrown(error)}`, { path, cause: error });
  }
  const exported = namespace.default;
  if (!isPlainObject(exported)) {
    const what = exported === undefined ? "has no default export" : `exports ${describeType(exported)} as its default`;
    throw new ToolgateError("INVALID_CONFIG", `${where} (${path}) ${what}; it must export a config object: export default defineConfig({ ... })`, { path });
  }
  return exported;
}
