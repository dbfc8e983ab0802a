// Bundles the `toolgate` CLI into dist/cli/: toolgate.cjs (the CLI, the whole hook path in one file),
// main.cjs (the bin: a small launcher that runs toolgate.cjs with V8's code cache, see
// src/cli/code-cache.ts) and one bundle per rarely used command, loaded when that command runs. The
// CLI starts once per tool call when it serves as an agent's hook, and Node loading ~60 small modules
// costs more than parsing one file. worker-entry.cjs starts the worker thread of an isolated plugin.
// Kept out of the bundle, as installed dependencies: jiti (large, imported only for TypeScript
// plugins, and it loads its own files next to it) and what only `new` and `add` use.
import { build } from "esbuild";
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire, isBuiltin } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const packageDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8"));
// Also kept out: what only a rarely configured feature imports, on first use (mcp-proxy: the MCP SDK; YAML
// configs: yaml; rules: picomatch), and the optional packages a project installs itself (model hooks, the
// Redis store). Bundled, a dynamic import would be inlined into main.cjs and parsed on every start.
// The library (@toolgate/host, from its sources) is bundled in: the hook path is one file.
const optionalPackages = ["@toolgate/cedar", "@toolgate/cel", "@toolgate/model-hooks", "@toolgate/store-redis"];
const external = [
  "jiti",
  "magicast",
  "magicast/*",
  "fast-glob",
  "validate-npm-package-name",
  "yaml",
  "picomatch",
  "@modelcontextprotocol/sdk",
  "@modelcontextprotocol/sdk/*",
  ...optionalPackages,
];
const unknown = external.filter((name) => !(name.replace("/*", "") in { ...manifest.dependencies, ...manifest.peerDependencies }));
if (unknown.length > 0) throw new Error(`bundle.mjs: external ${unknown.join(", ")} is not a dependency of ${manifest.name}`);

/**
 * Node's built-ins through `require`, each loaded on first use. An ES import of a built-in builds a
 * facade that reads every export (`node:fs`'s getters then load the whole streams stack), and each
 * built-in not yet loaded (crypto, vm, os, url…) costs its own start-up even on paths that never call
 * it. So each built-in becomes an object of getters, one per export this Node has at build time, that
 * requires the module when one is first read. esbuild's `__toESM` would copy that object's getters
 * into a new one at every `import` of the built-in (53 of them, ~3 ms a start), so the object is its
 * own ES module namespace, marked, and `__toESM` returns a marked object as it is (see patchToEsm).
 * The same for the bundled CommonJS packages in `lazyPackages`, whose loading does work the hook path
 * does not need (fastest-levenshtein allocates a 256 kB table, used only to suggest a hook's name).
 */
const esModuleMark = "toolgate.lazy-builtin";
// @toolgate/shell (the shell reader, ~100 kB) serves only permission rules with a command condition on a shell
// call: evaluating it costs ~0.4 ms of each start (V8's code cache takes the parse), and most configs have no such rule.
const lazyPackages = ["fastest-levenshtein", "@toolgate/shell"];
const lazyBuiltins = {
  name: "lazy-builtins",
  setup(build) {
    build.onResolve({ filter: /^[@a-z_:/-]+$/ }, ({ path, kind }) =>
      kind === "import-statement" && (isBuiltin(path) || lazyPackages.includes(path)) ? { path, namespace: "lazy-builtin" } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "lazy-builtin" }, async ({ path }) => {
      // A package is bundled (required by its file, which this plugin does not intercept); a built-in is Node's.
      const target = isBuiltin(path) ? path : require.resolve(path);
      const names = /\.ts$/.test(target)
        ? await exportsOf(target)
        : Object.getOwnPropertyNames(require(path)).filter((name) => name !== "default" && name !== "__esModule");
      const contents = [
        "let loaded;",
        `const load = () => (loaded ??= require(${JSON.stringify(target)}));`,
        "const lazy = {};",
        `for (const name of ${JSON.stringify(names)}) Object.defineProperty(lazy, name, { get: () => load()[name], enumerable: true });`,
        // What esbuild's __toESM would make of it, built once here rather than copied at each import site.
        'Object.defineProperty(lazy, "default", { get: load, enumerable: true });',
        `Object.defineProperty(lazy, Symbol.for(${JSON.stringify(esModuleMark)}), { value: lazy });`,
        "module.exports = lazy;",
      ].join("\n");
      return { contents, loader: "js", resolveDir: packageDir };
    });
  },
};

/** The names a TypeScript module of the workspace exports (it cannot be required here to list them). */
async function exportsOf(file) {
  const { metafile } = await build({ entryPoints: [file], bundle: true, write: false, metafile: true, format: "esm", platform: "node", logLevel: "silent" });
  return Object.values(metafile.outputs)[0].exports;
}

/**
 * commander requires `node:child_process` on load (~2-9 ms) for a feature the CLI does not use
 * (executable subcommands); it gets it on first use instead.
 */
const lazyChildProcess = {
  name: "commander-lazy-child-process",
  setup(build) {
    build.onLoad({ filter: /commander[\\/]lib[\\/]command\.js$/ }, async ({ path }) => {
      const source = await readFile(path, "utf8");
      const eager = "const childProcess = require('node:child_process');";
      if (!source.includes(eager)) throw new Error(`bundle.mjs: ${path} no longer has \`${eager}\`; update the plugin`);
      const lazy =
        "let loadedChildProcess; const childProcess = { spawn: (...args) => (loadedChildProcess ??= require('node:child_process')).spawn(...args) };";
      return { contents: source.replace(eager, lazy), loader: "js" };
    });
  },
};

/**
 * The commands main.ts imports only when they run (not the hook path) are bundles of their own, next to main.cjs:
 * with code splitting, what they share with the host commands would become chunks that every start
 * of main.js loads too, file by file. main.js, the whole hook path, is one file instead.
 */
const lazyCommands = ["new", "add", "explain", "mcp-proxy", "init", "doctor", "serve", "decisions", "ui", "replay", "diff", "cedar"];
const lazyCommandsExternal = {
  name: "lazy-commands-external",
  setup(build) {
    const filter = new RegExp(`^\\./commands/(${lazyCommands.join("|")})\\.js$`);
    build.onResolve({ filter }, ({ path, kind }) => (kind === "dynamic-import" ? { path: path.replace("./commands/", "./"), external: true } : undefined));
  },
};

const shared = {
  absWorkingDir: packageDir,
  outdir: "dist/cli",
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  external,
  define: { TOOLGATE_HOST_VERSION: JSON.stringify(manifest.version) },
  // CommonJS dependencies bundled into ESM (commander) call require() for Node's built-ins.
  banner: { js: 'import { createRequire as __toolgateRequire } from "node:module";\nconst require = __toolgateRequire(import.meta.url);' },
  minifySyntax: true,
  minifyWhitespace: true,
  legalComments: "none",
  logLevel: "warning",
};

// toolgate.cjs is CommonJS: Node starts a CommonJS entry without setting up its ES module loader (~3% of
// `node -e 0`), which a run without JavaScript plugins then never needs. `new` and `add` stay ES
// modules, imported with import().
await build({
  ...shared,
  entryPoints: { toolgate: "src/cli/main.ts" },
  format: "cjs",
  outExtension: { ".js": ".cjs" },
  banner: { js: '"use strict";\nconst __toolgateModuleUrl = require("node:url").pathToFileURL(__filename).href;' },
  define: { ...shared.define, "import.meta.url": "__toolgateModuleUrl" },
  plugins: [lazyBuiltins, lazyChildProcess, lazyCommandsExternal],
});
// A plugin with `isolation: "worker"` runs in a worker thread started from worker-entry next to the
// code that spawns it (src/isolation/spawn-worker.ts): for toolgate.cjs, dist/cli/worker-entry.cjs.
// Node compiles it itself (no launcher), so its import() needs no rewrite.
await build({
  ...shared,
  entryPoints: { "worker-entry": join(dirname(require.resolve("@toolgate/host/package.json")), "src/isolation/worker-entry.ts") },
  format: "cjs",
  outExtension: { ".js": ".cjs" },
  banner: { js: '"use strict";\nconst __toolgateModuleUrl = require("node:url").pathToFileURL(__filename).href;' },
  define: { ...shared.define, "import.meta.url": "__toolgateModuleUrl" },
  plugins: [lazyBuiltins],
});
const bundleFile = join(packageDir, "dist/cli/toolgate.cjs");
const bundle = patchToEsm(callerImport(readFileSync(bundleFile, "utf8")));
writeFileSync(bundleFile, bundle);

/**
 * The launcher compiles toolgate.cjs with `vm.Script`, whose code has no `import()` on Node 20 (short of
 * an experimental flag): each `import(` becomes a call of the function the launcher passes in.
 */
function callerImport(code) {
  const dynamicImport = /(?<![\w$.])import\(/g;
  const rewritten = code.replace(dynamicImport, "__toolgateImport(");
  if (rewritten === code) throw new Error("bundle.mjs: no import( in toolgate.cjs; is the rewrite still needed?");
  return rewritten;
}

/** esbuild's `__toESM`, taught to return a lazy built-in (marked by the lazyBuiltins plugin) as it is. */
function patchToEsm(code) {
  const helper = "var __toESM=(mod,isNodeMode,target)=>(";
  if (!code.includes(helper)) throw new Error(`bundle.mjs: esbuild's __toESM is no longer \`${helper}\`; update patchToEsm`);
  return code.replace(helper, `var __toESM=(mod,isNodeMode,target)=>mod?.[Symbol.for(${JSON.stringify(esModuleMark)})]??(`);
}

// The bin: small, so compiling it on every start costs little; it runs toolgate.cjs from V8's code cache.
await build({
  ...shared,
  entryPoints: { main: "src/cli/bin.ts" },
  format: "cjs",
  outExtension: { ".js": ".cjs" },
  banner: {},
  define: { TOOLGATE_BUNDLE_ID: JSON.stringify(createHash("sha256").update(bundle).digest("hex").slice(0, 16)) },
  plugins: [],
  // It takes one function from @toolgate/host/internal; the rest of that entry is parsed, then shaken out.
  logOverride: { "empty-import-meta": "silent" },
});
await build({
  ...shared,
  entryPoints: Object.fromEntries(lazyCommands.map((name) => [name, `src/cli/commands/${name}.ts`])),
  chunkNames: "chunks/[name]-[hash]",
  splitting: true,
  plugins: [lazyBuiltins, lazyChildProcess],
});
