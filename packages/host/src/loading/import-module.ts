import { createJiti } from "jiti";
import { pathToFileURL } from "node:url";

// No module cache: a host created after a plugin or config file changed must see the new code.
const jiti = createJiti(import.meta.url, { moduleCache: false, interopDefault: false });

/** Imports a TypeScript or JavaScript module (ESM or CommonJS) by file path and returns its namespace. */
export async function importModule(path: string): Promise<Record<string, unknown>> {
  return (await jiti.import(pathToFileURL(path).href)) as Record<string, unknown>;
}
