// What a user's `npm install` of packed tarballs brings: every package under node_modules and their size.
import { execFile } from "node:child_process";
import { lstatSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

export interface InstalledPackage {
  /** `name@version`. */
  id: string;
  /** Its folder on disk, less the packages nested in its own node_modules. */
  bytesOnDisk: number;
}

export interface InstallFootprint {
  /** Every package installed, nested copies included, sorted by id. */
  packages: InstalledPackage[];
  /** What node_modules takes on disk, in allocated blocks (what `du` reports). */
  bytesOnDisk: number;
  /** The sum of the file sizes under node_modules. */
  bytes: number;
}

/**
 * `npm install` the tarballs into `projectDir` (a fresh, empty folder), as a user of the published
 * packages would: plain npm, this machine's registry for everything not among the tarballs. Tarballs
 * that depend on each other are installed together, so npm takes the packed `@toolgate/*` versions.
 */
export async function installTarballs(tarballs: readonly string[], projectDir: string): Promise<InstallFootprint> {
  writeFileSync(join(projectDir, "package.json"), `${JSON.stringify({ name: "footprint-probe", private: true, type: "module" }, null, 2)}\n`);
  // Flags, not prompts: npm_config_yes may be false here, and audit or fund notices only add noise.
  const args = ["install", "--no-audit", "--no-fund", "--no-update-notifier", "--loglevel=error", ...tarballs];
  try {
    await run("npm", args, { cwd: projectDir, env: npmEnvironment(), maxBuffer: 16 * 1024 * 1024, timeout: 300_000 });
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; message?: string };
    throw new Error(`npm ${args.join(" ")} failed in ${projectDir}:\n${failed.stderr || failed.stdout || failed.message}`);
  }
  return measureNodeModules(join(projectDir, "node_modules"));
}

/**
 * Ours, less the `npm_*` and `pnpm_*` variables a running package manager exports: `pnpm run` sets
 * npm_config_* of its own, and only this machine's npm configuration should decide how npm installs.
 */
function npmEnvironment(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(npm|pnpm)_/i.test(key)));
  return { ...env, FORCE_COLOR: "0", NO_UPDATE_NOTIFIER: "1" };
}

/** Counts the packages in a node_modules folder (nested ones too) and sizes the whole folder. */
function measureNodeModules(nodeModules: string): InstallFootprint {
  const packages = packageFolders(nodeModules).map((folder) => ({ id: packageId(folder), bytesOnDisk: folderSize(folder, "node_modules").bytesOnDisk }));
  const { bytes, bytesOnDisk } = folderSize(nodeModules);
  return { packages: packages.sort((a, b) => a.id.localeCompare(b.id)), bytes, bytesOnDisk };
}

/** Folders holding a package: `node_modules/name`, `node_modules/@scope/name`, and theirs, recursively. */
function packageFolders(nodeModules: string): string[] {
  const found: string[] = [];
  for (const entry of safeReaddir(nodeModules)) {
    if (entry.name.startsWith(".") || !(entry.isDirectory() || entry.isSymbolicLink())) continue;
    const path = join(nodeModules, entry.name);
    const candidates = entry.name.startsWith("@") ? safeReaddir(path).map((scoped) => join(path, scoped.name)) : [path];
    for (const candidate of candidates) {
      if (!isFile(join(candidate, "package.json"))) continue;
      found.push(candidate, ...packageFolders(join(candidate, "node_modules")));
    }
  }
  return found;
}

function packageId(folder: string): string {
  const { name, version } = JSON.parse(readFileSync(join(folder, "package.json"), "utf8")) as { name?: string; version?: string };
  return `${name ?? folder}@${version ?? "?"}`;
}

/** Sizes without following symlinks, skipping entries named `skip`; a file hard-linked twice is counted once. */
function folderSize(root: string, skip?: string): { bytes: number; bytesOnDisk: number } {
  const seen = new Set<string>();
  let bytes = 0;
  let bytesOnDisk = 0;
  const visit = (path: string) => {
    const stats = lstatSync(path);
    const inode = `${stats.dev}:${stats.ino}`;
    if (seen.has(inode)) return;
    seen.add(inode);
    bytesOnDisk += stats.blocks * 512;
    if (!stats.isDirectory()) {
      bytes += stats.size;
      return;
    }
    for (const entry of readdirSync(path)) if (entry !== skip) visit(join(path, entry));
  };
  visit(root);
  return { bytes, bytesOnDisk };
}

function safeReaddir(path: string) {
  try {
    return readdirSync(path, { withFileTypes: true });
  } catch {
    return [];
  }
}

function isFile(path: string): boolean {
  try {
    return lstatSync(path).isFile();
  } catch {
    return false;
  }
}
