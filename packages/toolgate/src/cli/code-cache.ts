import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { Script } from "node:vm";

/**
 * The parameters a bundle run by `runWithCodeCache` receives: CommonJS's five, and the `import()` the
 * bundle's dynamic imports are rewritten to call (see scripts/bundle.mjs). Code compiled by
 * `vm.Script` has no `import()` of its own on Node 20 without an experimental flag.
 */
const parameters = ["exports", "require", "module", "__filename", "__dirname", "__toolgateImport"];

type Bundle = (
  exports: object,
  require: NodeJS.Require,
  module: { exports: object },
  filename: string,
  dirname: string,
  dynamicImport: (specifier: string) => Promise<unknown>,
) => void;

export interface CodeCacheOptions {
  /** The folder for the cache file; undefined runs without a cache. */
  cacheDir: string | undefined;
  /**
   * Names the cache among those of one build. The cache holds what the run that wrote it compiled, so
   * a path that runs often and must start fast (the hook) keeps one of its own.
   */
  name: string;
  /** Names this build of the bundle (a hash of its content), so another build never reads its cache. */
  buildId: string;
}

/**
 * Runs a CommonJS bundle the way Node runs a CommonJS file, compiled with V8's code cache: Node 20
 * compiles its modules from source on every start (`module.enableCompileCache` came in Node 22.1), and
 * for the CLI, which starts once per tool call, compiling its bundle is a large part of start-up.
 * The first run stores the code V8 compiled, on exit so that it holds every function that ran; later
 * runs skip compiling. A cache that cannot be read or written, or that V8 rejects (another V8, flags,
 * a damaged file), only costs that run the compile.
 */
export function runWithCodeCache(bundleFile: string, { cacheDir, name, buildId }: CodeCacheOptions): void {
  const source = readFileSync(bundleFile, "utf8");
  const cacheFile =
    cacheDir === undefined || !isPrivateOrMissing(cacheDir)
      ? undefined
      : join(cacheDir, `${name}-${buildId}-${process.version}-${process.arch}${nodeFlagsTag()}.v8`);
  const cachedData = cacheFile === undefined ? undefined : readIfPresent(cacheFile);
  const script = new Script(`(function (${parameters.join(", ")}) {${source}\n})`, { filename: bundleFile, cachedData });
  if (cacheFile !== undefined && (cachedData === undefined || script.cachedDataRejected)) process.once("exit", () => writeCache(cacheFile, script));
  const bundle = script.runInThisContext() as Bundle;
  const module = { exports: {} };
  bundle.call(module.exports, module.exports, createRequire(bundleFile), module, bundleFile, dirname(bundleFile), importFrom(bundleFile));
}

/**
 * V8 rejects a cache made under other V8 flags; runs with Node options of their own (`--inspect`,
 * NODE_OPTIONS) keep a cache apart, rather than each rewriting the one the plain runs use.
 */
function nodeFlagsTag(): string {
  const flags = `${process.execArgv.join(" ")}\0${process.env.NODE_OPTIONS ?? ""}`;
  if (flags === "\0") return "";
  let hash = 0x811c9dc5;
  for (let index = 0; index < flags.length; index++) hash = Math.imul(hash ^ flags.charCodeAt(index), 0x01000193);
  return `-flags-${(hash >>> 0).toString(16)}`;
}

/**
 * V8 trusts a code cache it accepts: the code in it runs as it is. So a folder someone else could write
 * to (one made in a shared temporary folder by another user, or opened to the group or the world) is
 * not used. A missing one is created private (0700) when the cache is written.
 */
function isPrivateOrMissing(dir: string): boolean {
  try {
    const stats = statSync(dir, { throwIfNoEntry: false });
    if (stats === undefined) return true;
    const ownUid = process.getuid?.();
    return stats.isDirectory() && (ownUid === undefined || stats.uid === ownUid) && (stats.mode & 0o022) === 0;
  } catch {
    // Not reachable as a folder (a file on the way, no permission): no cache, the run goes on.
    return false;
  }
}

/** `import()` as the bundle's own would do it: relative specifiers from the bundle's folder. */
function importFrom(bundleFile: string): (specifier: string) => Promise<unknown> {
  const base = pathToFileURL(bundleFile);
  return (specifier) => import(specifier.startsWith("./") || specifier.startsWith("../") ? new URL(specifier, base).href : specifier);
}

function readIfPresent(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Written to a temporary name and renamed, so a process reading the cache never sees half a file. */
function writeCache(file: string, script: Script): void {
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    const partial = `${file}.${process.pid}.tmp`;
    writeFileSync(partial, script.createCachedData(), { mode: 0o600 });
    renameSync(partial, file);
  } catch {
    // An unwritable cache folder only costs each run the compile.
  }
}
