// Bundles the `toolgate` CLI into dist/cli/: main.js (the bin) and one chunk per command, loaded when
// that command runs. The CLI starts once per tool call when it serves as an agent's hook, and Node
// loading ~60 small modules costs more than parsing one file, so the hook path is one bundle.
// Kept out of the bundle, as installed dependencies: jiti (large, imported only for TypeScript
// plugins, and it loads its own files next to it) and what only `new` and `add` use.
// The library entry (dist/index.js) stays tsc's per-module output; this runs after tsc.
import { build } from "esbuild";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const packageDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8"));
const external = ["jiti", "magicast", "magicast/*", "fast-glob", "validate-npm-package-name"];
const unknown = external.filter((name) => !(name.replace("/*", "") in manifest.dependencies));
if (unknown.length > 0) throw new Error(`bundle.mjs: external ${unknown.join(", ")} is not a dependency of ${manifest.name}`);

await build({
  absWorkingDir: packageDir,
  entryPoints: { main: "src/cli/main.ts" },
  outdir: "dist/cli",
  chunkNames: "chunks/[name]-[hash]",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  external,
  // CommonJS dependencies bundled into ESM (commander) call require() for Node's built-ins.
  banner: { js: 'import { createRequire as __toolgateRequire } from "node:module";\nconst require = __toolgateRequire(import.meta.url);' },
  minifySyntax: true,
  minifyWhitespace: true,
  legalComments: "none",
  logLevel: "warning",
});
