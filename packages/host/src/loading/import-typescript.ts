import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Jiti } from "jiti";
import { hashText } from "./cache-key.js";
import { evaluateTranspiled, NeedsJiti } from "./evaluate-transpiled.js";
import { userCacheDir } from "./user-cache-dir.js";

// Bumped when the cached code's shape changes (jiti's transform options, the evaluation below).
const cacheFormat = "toolgate-ts-1";

let jiti: Promise<Jiti> | undefined;

/**
 * Imports a TypeScript module. jiti transpiles it once; the output is cached on disk under a hash of
 * the file's path and source, so later processes read the cached code and never import jiti, the
 * largest part of start-up (Babel included). An edited file has a new hash, hence a fresh transpile.
 * A module that imports what the cached path cannot load the way jiti would (another TypeScript file,
 * JSON, a package only `import` conditions resolve) is handed to jiti whole.
 */
export async function importTypeScript(path: string): Promise<Record<string, unknown>> {
  const source = readFileSync(path, "utf8");
  const cacheFile = join(userCacheDir(), `${hashText(`${cacheFormat}\0${path}\0${source}`)}.cjs`);
  let code = readCached(cacheFile);
  if (code === undefined) {
    code = (await loadJiti()).transform({ source, filename: path, ts: true, async: true, jsx: false, interopDefault: false });
    // A syntax error comes back as code that reports it; jiti's own import reports it with the position.
    if (code.includes("__JITI_ERROR__")) return importWithJiti(path);
    writeCached(cacheFile, code);
  }
  try {
    return await evaluateTranspiled(code, path);
  } catch (error) {
    if (!(error instanceof NeedsJiti)) throw error;
    return importWithJiti(path);
  }
}

// No module cache: a host created after a plugin or config file changed must see the new code.
async function importWithJiti(path: string): Promise<Record<string, unknown>> {
  return (await (await loadJiti()).import(pathToFileURL(path).href)) as Record<string, unknown>;
}

function loadJiti(): Promise<Jiti> {
  jiti ??= import("jiti").then(({ createJiti }) =>
    createJiti(import.meta.url, { moduleCache: false, interopDefault: false, fsCache: join(userCacheDir(), "jiti") }),
  );
  return jiti;
}

function readCached(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

/** Written to a temporary name and renamed, so a process reading the cache never sees half a file. */
function writeCached(file: string, code: string): void {
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    const partial = `${file}.${process.pid}.tmp`;
    writeFileSync(partial, code, { mode: 0o600 });
    renameSync(partial, file);
  } catch {
    // An unwritable cache only costs the next process a transpile.
  }
}
