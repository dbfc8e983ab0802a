/**
 * A module resolve hook (`module.register`) that makes `@toolgate/*` resolve the way it does for someone
 * who installed the packages: through `publishConfig.exports`, to the built `dist/`. In the workspace the
 * packages export their TypeScript sources, which is right for tests and wrong for a benchmark.
 *
 * Plain JavaScript on purpose: resolve hooks run on the loader thread, before any TypeScript loader.
 */
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const workspacePackage = /^(@toolgate\/[^/]+)(\/.*)?$/;

/** @type {import("node:module").ResolveHook} */
export async function resolve(specifier, context, nextResolve) {
  const match = workspacePackage.exec(specifier);
  if (!match) return nextResolve(specifier, context);
  const [, name, subpath = ""] = match;
  const manifestUrl = new URL((await nextResolve(`${name}/package.json`, context)).url);
  const manifest = JSON.parse(readFileSync(manifestUrl, "utf8"));
  const target = importTarget(manifest.publishConfig?.exports?.[`.${subpath}`]);
  if (typeof target !== "string") throw new Error(`${name}: publishConfig.exports has no entry for ".${subpath}" (in ${fileURLToPath(manifestUrl)})`);
  const url = new URL(target, manifestUrl);
  if (!existsSync(url)) throw new Error(`${name}${subpath}: ${fileURLToPath(url)} does not exist; build the packages first (pnpm build)`);
  return { url: url.href, format: "module", shortCircuit: true };
}

/** The file an `import` gets from one `exports` entry: a path, or conditions (possibly nested) with `import` or `default`. */
function importTarget(entry) {
  if (typeof entry === "string" || entry === undefined || entry === null) return entry;
  return importTarget(entry.import ?? entry.default);
}
