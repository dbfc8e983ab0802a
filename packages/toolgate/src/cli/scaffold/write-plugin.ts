import fastGlob from "fast-glob";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { packageRoot } from "../package-root.js";
import { compatibleRange, hostVersion, sdkVersion } from "../versions.js";

// Not read from any package at run time: the host does not depend on them. Keep in step with the workspace.
const toolVersions = { "@types/node": "^20.19.0", typescript: "^5.9.3", vitest: "^4.1.12" };

export interface PluginNames {
  /** The npm package name, as the user gave it. */
  packageName: string;
  /** The plugin's runtime `name` (the package name without scope and `toolgate-plugin-` prefix). */
  pluginName: string;
}

/** Writes a new plugin package into `targetDir` (which must not exist yet); returns the files written. */
export async function writePluginPackage(targetDir: string, names: PluginNames): Promise<string[]> {
  const files = await renderTemplates(names);
  files.set("package.json", `${JSON.stringify(createManifest(names), null, 2)}\n`);
  for (const [path, content] of files) {
    await mkdir(dirname(join(targetDir, path)), { recursive: true });
    await writeFile(join(targetDir, path), content, { flag: "wx" });
  }
  return [...files.keys()].sort();
}

/**
 * Publish-ready from the start: `exports` point at dist/, and `prepack` builds it, so `npm publish`
 * ships a working package. Dropped in a project's plugins/ folder before a build, the host loads
 * src/index.ts instead (it falls back to the source when the declared entry does not exist).
 */
function createManifest({ packageName, pluginName }: PluginNames): Record<string, unknown> {
  const sdkRange = compatibleRange(sdkVersion());
  return {
    name: packageName,
    version: "0.1.0",
    description: `toolgate plugin ${pluginName}`,
    keywords: ["toolgate-plugin", "toolgate"],
    license: "MIT",
    type: "module",
    sideEffects: false,
    engines: { node: ">=20.11" },
    exports: { ".": { types: "./dist/index.d.ts", default: "./dist/index.js" }, "./package.json": "./package.json" },
    types: "./dist/index.d.ts",
    files: ["dist", "!dist/**/*.test.*"],
    scripts: { build: "tsc", test: "vitest run", "test:policy": "toolgate test", prepack: "npm run build" },
    peerDependencies: { "@toolgate/plugin-sdk": sdkRange },
    devDependencies: {
      "@toolgate/host": compatibleRange(hostVersion()),
      "@toolgate/plugin-sdk": sdkRange,
      toolgate: compatibleRange(hostVersion()),
      ...toolVersions,
    },
  };
}

/**
 * The templates are real files under packages/toolgate/templates/plugin/, not strings in code: they read
 * as the plugin a user gets, with `{{placeholders}}` only inside strings and comments, so an editor
 * (and a test) can type-check them and run their tests. package.json is the exception: it is data
 * computed at run time (the SDK's and host's versions), so `createManifest` builds it as an object.
 * A template named `gitignore` is written as `.gitignore`, because npm leaves `.gitignore` files out
 * of the published host package.
 */
async function renderTemplates(names: PluginNames): Promise<Map<string, string>> {
  const templateDir = join(packageRoot(), "templates", "plugin");
  const paths = await fastGlob("**/*", { cwd: templateDir, dot: true, onlyFiles: true });
  // A package published without its templates folder must fail loudly, not write a bare package.json.
  if (paths.length === 0) throw new Error(`the plugin templates are missing from ${templateDir}; reinstall @toolgate/host`);
  const files = new Map<string, string>();
  for (const path of paths.sort()) {
    const content = await readFile(join(templateDir, path), "utf8");
    files.set(path === "gitignore" ? ".gitignore" : path, fillPlaceholders(content, path, names));
  }
  return files;
}

function fillPlaceholders(content: string, path: string, names: PluginNames): string {
  const values: Record<string, string> = { ...names };
  return content.replace(/\{\{(\w+)\}\}/g, (_match, key: string) => {
    const value = values[key];
    if (value === undefined) throw new Error(`template ${path} uses an unknown placeholder {{${key}}}`);
    return value;
  });
}
