import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);

export const workspaceRoot = resolve(fileURLToPath(new URL("../..", import.meta.url)));

export interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  files?: string[];
  bin?: string | Record<string, string>;
  [field: string]: unknown;
}

export interface WorkspacePackage {
  dir: string;
  manifest: Manifest;
}

export interface PackedPackage extends WorkspacePackage {
  /** Absolute path of the `.tgz` that `pnpm pack` wrote. */
  tarball: string;
  /** Paths inside the tarball, without the leading `package/`. */
  files: string[];
  /** The manifest as packed: `publishConfig` applied, `workspace:` ranges replaced. */
  packedManifest: Manifest;
}

/**
 * Every non-private package under packages/ and plugins/, in publish order: each after the workspace
 * packages it names in dependencies, peerDependencies or optionalDependencies (an optional peer too,
 * so a registry never holds a package whose workspace range cannot resolve yet), else by folder name.
 */
export function publishablePackages(root = workspaceRoot): WorkspacePackage[] {
  const found: WorkspacePackage[] = [];
  for (const group of ["packages", "plugins"]) {
    const groupDir = join(root, group);
    if (!existsSync(groupDir)) continue;
    for (const entry of readdirSync(groupDir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const manifestPath = join(groupDir, entry.name, "package.json");
      if (!entry.isDirectory() || !existsSync(manifestPath)) continue;
      const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as Manifest;
      if (!manifest.private) found.push({ dir: join(groupDir, entry.name), manifest });
    }
  }
  return dependencyOrder(found);
}

const dependencyFields = ["dependencies", "peerDependencies", "optionalDependencies"] as const;

/** `packages` ordered so that each comes after the ones among them it depends on; a cycle throws, naming it. */
function dependencyOrder(packages: WorkspacePackage[]): WorkspacePackage[] {
  const byName = new Map(packages.map((pkg) => [pkg.manifest.name, pkg]));
  const ordered: WorkspacePackage[] = [];
  const visiting: string[] = [];
  const visit = (pkg: WorkspacePackage) => {
    if (ordered.includes(pkg)) return;
    if (visiting.includes(pkg.manifest.name))
      throw new Error(`workspace packages depend on each other in a cycle: ${[...visiting, pkg.manifest.name].join(" -> ")}`);
    visiting.push(pkg.manifest.name);
    for (const field of dependencyFields) {
      for (const name of Object.keys((pkg.manifest[field] as Record<string, string> | undefined) ?? {})) {
        const dependency = byName.get(name);
        if (dependency) visit(dependency);
      }
    }
    visiting.pop();
    ordered.push(pkg);
  };
  for (const pkg of packages) visit(pkg);
  return ordered;
}

/**
 * Everything npm installs for a user of `manifest` whatever they ask for: `dependencies`,
 * `optionalDependencies`, and the peers not marked optional (npm 7+ installs those too).
 */
export function productionDependencies(manifest: Manifest): string[] {
  const names = (field: unknown) => Object.keys((field ?? {}) as Record<string, string>);
  const peerMeta = (manifest.peerDependenciesMeta ?? {}) as Record<string, { optional?: boolean }>;
  const requiredPeers = names(manifest.peerDependencies).filter((name) => peerMeta[name]?.optional !== true);
  return [...new Set([...names(manifest.dependencies), ...names(manifest.optionalDependencies), ...requiredPeers])].sort();
}

/** `name` and every workspace package it reaches through production dependencies. */
export function withWorkspaceDependencies(name: string, root = workspaceRoot): WorkspacePackage[] {
  const workspace = new Map(publishablePackages(root).map((pkg) => [pkg.manifest.name, pkg]));
  const reached = new Map<string, WorkspacePackage>();
  const visit = (current: string) => {
    const pkg = workspace.get(current);
    if (pkg === undefined) throw new Error(`${current} is not a publishable workspace package`);
    if (reached.has(current)) return;
    reached.set(current, pkg);
    for (const dependency of productionDependencies(pkg.manifest)) if (workspace.has(dependency)) visit(dependency);
  };
  visit(name);
  return [...reached.values()];
}

/**
 * The pnpm to run: the one running us when there is one (`pnpm run …` sets npm_execpath), else the
 * version the root `packageManager` field pins, through npx.
 */
function pnpmCommand(root = workspaceRoot): [string, string[]] {
  const execPath = process.env.npm_execpath;
  if (execPath && /pnpm/i.test(execPath)) {
    return /\.[cm]?js$/.test(execPath) ? [process.execPath, [execPath]] : [execPath, []];
  }
  const { packageManager } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { packageManager?: string };
  const pinned = packageManager?.startsWith("pnpm@") ? packageManager.split("+")[0]! : "pnpm";
  return ["npx", ["--yes", pinned]];
}

/**
 * The environment for a nested pnpm. `pmOnFail=ignore` skips pnpm 12's check of the `packageManager`
 * pin: run from inside another pnpm it fails now and then resolving `@pnpm/exe.*` builds that the
 * registry does not serve (ERR_PNPM_BAD_CONFIG_DEP), and the pnpm already running is the right one.
 */
function pnpmEnvironment(): NodeJS.ProcessEnv {
  return { ...process.env, FORCE_COLOR: "0", pnpm_config_pm_on_fail: "ignore" };
}

/**
 * `pnpm pack` one workspace package into `destination`. pnpm runs `prepack` (the build), applies
 * `publishConfig` and turns `workspace:` ranges into real versions, exactly as a publish would.
 */
export async function packPackage(pkg: WorkspacePackage, destination: string): Promise<PackedPackage> {
  const [command, prefix] = pnpmCommand();
  mkdirSync(destination, { recursive: true });
  const { stdout } = await withPackLock(() =>
    run(command, [...prefix, "pack", "--json", "--pack-destination", destination], {
      cwd: pkg.dir,
      maxBuffer: 64 * 1024 * 1024,
      env: pnpmEnvironment(),
    }),
  );
  const tarball = resolve(destination, tarballName(pkg.manifest));
  if (!existsSync(tarball)) throw new Error(`pnpm pack in ${pkg.dir} wrote no ${tarball}; it printed:\n${stdout}`);
  const files = (await tarEntries(tarball)).filter((file) => !file.endsWith("/"));
  const packedManifest = JSON.parse((await run("tar", ["-xzOf", tarball, "package/package.json"], { maxBuffer: 16 * 1024 * 1024 })).stdout) as Manifest;
  return { ...pkg, tarball, files, packedManifest };
}

const lockDir = join(workspaceRoot, "node_modules", ".cache", "toolgate-pack.lock");
const staleLockMs = 5 * 60_000;

/**
 * Packing rebuilds a package's dist/ in place, so two packs at once (check:packages while the publish
 * test runs, two test runs on one machine) could tar a half-built dist/. A lock folder serializes
 * them; one left behind by a killed process goes stale after five minutes.
 */
async function withPackLock<T>(action: () => Promise<T>): Promise<T> {
  mkdirSync(dirname(lockDir), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lockDir);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      if (lockAge() > staleLockMs) rmSync(lockDir, { recursive: true, force: true });
      else await sleep(250);
    }
  }
  try {
    return await action();
  } finally {
    rmSync(lockDir, { recursive: true, force: true });
  }
}

function lockAge(): number {
  try {
    return Date.now() - statSync(lockDir).mtimeMs;
  } catch {
    return 0;
  }
}

function tarballName(manifest: Manifest): string {
  return `${manifest.name.replace(/^@/, "").replace("/", "-")}-${manifest.version}.tgz`;
}

async function tarEntries(tarball: string): Promise<string[]> {
  const { stdout } = await run("tar", ["-tzf", tarball], { maxBuffer: 16 * 1024 * 1024 });
  return stdout
    .split("\n")
    .filter(Boolean)
    .map((entry) => entry.replace(/^package\//, ""))
    .sort();
}
