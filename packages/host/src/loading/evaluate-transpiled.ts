import { createRequire, isBuiltin } from "node:module";
import { dirname } from "node:path";
import { pathToFileURL } from "node:url";
import { runInThisContext } from "node:vm";

/** Thrown when the module needs more than the cached path offers; the caller hands it to jiti. */
export class NeedsJiti extends Error {
  constructor(what: string) {
    super(`needs jiti: ${what}`);
  }
}

const nativeFile = /\.(mjs|cjs|js)$/;

/**
 * Runs the code jiti's transform produced (`async: true`) the way jiti's own evaluation does: in an
 * async function taking CommonJS's arguments plus `jitiImport`, line numbers kept. Imports that Node
 * loads natively (built-ins, JavaScript files, packages) get the namespace jiti would hand over, from
 * `import()`; anything jiti would transpile stops the evaluation with `NeedsJiti`. Imports come first
 * in the transpiled code, so nothing of the module has run by then.
 */
export async function evaluateTranspiled(code: string, path: string): Promise<Record<string, unknown>> {
  const wrapped = `(async function (exports, require, module, __filename, __dirname, jitiImport, jitiESMResolve) { ${code}\n});`;
  const run = compile(wrapped, path);
  const module = { id: path, filename: path, exports: {} as Record<string, unknown>, loaded: false };
  const unsupported = (what: string) => () => {
    throw new NeedsJiti(what);
  };
  await run(module.exports, unsupported("require()"), module, path, dirname(path), (id: string) => importNative(id, path), unsupported("import.meta.resolve"));
  module.loaded = true;
  return module.exports;
}

/** Code the wrapper cannot hold (jiti then evaluates it as an ES module of its own) goes to jiti. */
function compile(wrapped: string, path: string): (...args: unknown[]) => Promise<void> {
  try {
    return runInThisContext(wrapped, { filename: path, lineOffset: 0 }) as (...args: unknown[]) => Promise<void>;
  } catch (error) {
    if (error instanceof SyntaxError) throw new NeedsJiti(`the code does not compile as a function: ${error.message}`);
    throw error;
  }
}

async function importNative(specifier: string, parent: string): Promise<unknown> {
  if (isBuiltin(specifier)) return import(specifier);
  let resolved: string;
  try {
    resolved = createRequire(parent).resolve(specifier);
  } catch {
    throw new NeedsJiti(`import "${specifier}"`);
  }
  if (!nativeFile.test(resolved)) throw new NeedsJiti(`import "${specifier}" (${resolved})`);
  return import(pathToFileURL(resolved).href);
}
