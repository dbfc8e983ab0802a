// The footprint guard behind check:packages: a package's production dependencies against an allow-list,
// and its packed install (with the workspace packages it depends on) against a budget.
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { installTarballs, type InstallFootprint } from "./install-footprint.js";
import {
  type Manifest,
  packPackage,
  type PackedPackage,
  productionDependencies,
  type WorkspacePackage,
  withWorkspaceDependencies,
} from "./workspace-packages.js";

export interface InstallBudget {
  /** Packages under node_modules, the workspace ones included. */
  packages: number;
  /** node_modules on disk, in MB (10^6 bytes). */
  megabytesOnDisk: number;
}

export interface FootprintPolicy {
  /** The package guarded. */
  name: string;
  /** The only production dependencies it may have. */
  allowedDependencies: readonly string[];
  budget: InstallBudget;
}

/** Problems with `manifest`'s production dependencies; none when every one is allowed. */
export function unexpectedDependencies(manifest: Manifest, allowed: readonly string[]): string[] {
  return productionDependencies(manifest)
    .filter((name) => !allowed.includes(name))
    .map(
      (name) =>
        `production dependency ${name} is not on the allow-list; move the feature that needs it into a package of its own ` +
        "(loaded by name, as @toolgate/model-hooks is) or, if the core really needs it, add it to the list in scripts/check-packages.ts",
    );
}

/** Problems with an install's size; none when it is within the budget. */
export function overBudget(footprint: InstallFootprint, budget: InstallBudget): string[] {
  const problems: string[] = [];
  if (footprint.packages.length > budget.packages) problems.push(`installs ${footprint.packages.length} packages, over the budget of ${budget.packages}`);
  const megabytes = footprint.bytesOnDisk / 1e6;
  if (megabytes > budget.megabytesOnDisk)
    problems.push(`takes ${formatMegabytes(footprint.bytesOnDisk)} MB on disk, over the budget of ${budget.megabytesOnDisk} MB`);
  return problems;
}

/**
 * Packs (or reuses from `packed`) `name` and the workspace packages it depends on, `npm install`s them
 * into a fresh project under `workDir`, and measures node_modules.
 */
export async function measureInstall(name: string, packed: Map<string, PackedPackage>, workDir: string): Promise<InstallFootprint> {
  const tarballs: string[] = [];
  for (const pkg of withWorkspaceDependencies(name)) tarballs.push((await packOnce(pkg, packed, workDir)).tarball);
  const projectDir = mkdtempSync(join(workDir, "install-"));
  try {
    return await installTarballs(tarballs, projectDir);
  } finally {
    rmSync(projectDir, { recursive: true, force: true });
  }
}

async function packOnce(pkg: WorkspacePackage, packed: Map<string, PackedPackage>, destination: string): Promise<PackedPackage> {
  const existing = packed.get(pkg.manifest.name);
  if (existing) return existing;
  const fresh = await packPackage(pkg, destination);
  packed.set(pkg.manifest.name, fresh);
  return fresh;
}

function formatMegabytes(bytes: number): string {
  return (bytes / 1e6).toFixed(1);
}

/** Every package with its size, largest first: where to look when the budget is missed. */
export function listPackages(footprint: InstallFootprint): string {
  return [...footprint.packages]
    .sort((a, b) => b.bytesOnDisk - a.bytesOnDisk)
    .map((pkg) => `${pkg.id} ${formatMegabytes(pkg.bytesOnDisk)} MB`)
    .join(", ");
}

export function describeFootprint(footprint: InstallFootprint): string {
  return `${footprint.packages.length} packages, ${formatMegabytes(footprint.bytesOnDisk)} MB on disk (${formatMegabytes(footprint.bytes)} MB of files)`;
}
