import { statSync } from "node:fs";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { importTypeScript } from "./import-typescript.js";

const typeScriptFile = /\.[cm]?tsx?$/i;
const requireCache = createRequire(import.meta.url).cache;

/**
 * Imports a TypeScript or JavaScript module (ESM or CommonJS) by file path and returns its namespace.
 * JavaScript goes through Node's own `import()`, so a project without TypeScript plugins never loads a
 * transpiler; TypeScript goes through jiti, loaded on first use.
 */
export async function importModule(path: string): Promise<Record<string, unknown>> {
  if (typeScriptFile.test(path)) return importTypeScript(path);
  try {
    return await importJavaScript(path);
  } catch (error) {
    if (!needsTranspiler(error)) throw error;
    return importTypeScript(path);
  }
}

/** What Node refuses and jiti loads, as it did before JavaScript plugins went through Node's import(). */
const transpilerCodes = new Set([
  "ERR_UNKNOWN_FILE_EXTENSION", // a JavaScript module importing a TypeScript one
  "ERR_IMPORT_ATTRIBUTE_MISSING", // JSON imported without `with { type: "json" }`
  "ERR_IMPORT_ASSERTION_TYPE_MISSING", // the same, in Node's older wording
  "ERR_REQUIRE_ESM", // CommonJS requiring an ES module, before Node 20.19
]);

/**
 * jiti takes over where Node cannot: the cases above, and syntax errors, which Node reports without
 * file, line or column (jiti names them) and which on Node before 20.19 also mean ESM syntax in a
 * `.js` file that package.json does not mark as a module.
 */
function needsTranspiler(error: unknown): boolean {
  if (error instanceof SyntaxError) return true;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && transpilerCodes.has(code);
}

/**
 * Node caches a module by URL for the life of the process. A host created after the file changed must
 * see the new code, so the URL carries the file's version (mtime and size): the same file imports once,
 * an edited one imports afresh. A CommonJS module is also cached by file name, hence the delete.
 */
async function importJavaScript(path: string): Promise<Record<string, unknown>> {
  const url = pathToFileURL(path);
  const stats = statSync(path, { throwIfNoEntry: false });
  if (stats) url.searchParams.set("v", `${stats.mtimeMs}-${stats.size}`);
  delete requireCache[path];
  return (await import(url.href)) as Record<string, unknown>;
}
