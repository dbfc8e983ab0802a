// A project folder where a workspace package resolves as it does once installed, without packing:
// the built dist/ under node_modules with the manifest as published, third-party dependencies linked.
import { cpSync, existsSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { type Manifest, productionDependencies, type WorkspacePackage, withWorkspaceDependencies } from "./workspace-packages.js";

/**
 * Lays out `projectDir/node_modules` for `name` and the workspace packages it depends on. Each of those
 * is a copy (its `files`, the built dist/ among them) with `publishConfig` applied, so imports reach dist/
 * and not the TypeScript sources the workspace exports. Third-party dependencies are symlinks to the
 * copies pnpm installed for the package; Node follows them to their real folders, where their own
 * dependencies resolve. Throws when a package has not been built.
 */
export function layOutInstalled(name: string, projectDir: string): void {
  const nodeModules = join(projectDir, "node_modules");
  const packages = withWorkspaceDependencies(name);
  const ours = new Set(packages.map((pkg) => pkg.manifest.name));
  for (const pkg of packages) {
    copyAsPublished(pkg, join(nodeModules, pkg.manifest.name));
    for (const dependency of productionDependencies(pkg.manifest)) {
      if (!ours.has(dependency)) linkDependency(pkg, dependency, join(nodeModules, dependency));
    }
  }
}

function copyAsPublished(pkg: WorkspacePackage, target: string): void {
  if (!existsSync(join(pkg.dir, "dist"))) throw new Error(`${pkg.manifest.name}: ${join(pkg.dir, "dist")} does not exist; build it first`);
  mkdirSync(target, { recursive: true });
  for (const entry of pkg.manifest.files ?? []) {
    const source = join(pkg.dir, entry);
    if (existsSync(source)) cpSync(source, join(target, entry), { recursive: true });
  }
  writeFileSync(join(target, "package.json"), `${JSON.stringify(publishedManifest(pkg.manifest), null, 2)}\n`);
}

/** The manifest with `publishConfig`'s fields over the top-level ones, as pnpm publishes it. */
function publishedManifest(manifest: Manifest): Manifest {
  const { publishConfig, devDependencies: _devDependencies, ...rest } = manifest;
  return { ...rest, ...(publishConfig as Partial<Manifest> | undefined) };
}

function linkDependency(pkg: WorkspacePackage, dependency: string, link: string): void {
  if (existsSync(link)) return;
  const installed = join(pkg.dir, "node_modules", dependency);
  if (!existsSync(installed)) throw new Error(`${pkg.manifest.name}: its dependency ${dependency} is not installed (run pnpm install)`);
  mkdirSync(dirname(link), { recursive: true });
  symlinkSync(realpathSync(installed), link, "dir");
}
