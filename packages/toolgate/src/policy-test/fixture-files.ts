import fastGlob from "fast-glob";
import { statSync } from "node:fs";
import { join, resolve } from "node:path";

/** The fixture files `toolgate test` reads when it is given none, in the project folder. */
export const fixtureFileNames = ["toolgate.test.yaml", "toolgate.test.yml", "toolgate.test.json"] as const;
/** The folder whose `*.yaml`, `*.yml` and `*.json` files are fixtures too. */
export const fixtureFolderName = "toolgate.tests";

const fixturePattern = "*.{yaml,yml,json}";

/**
 * The fixture files to read: each path given (a folder stands for its fixture files), or the project's
 * own when none is given. Sorted within a folder, so the order is the same on every machine. Paths
 * that do not exist are returned too: reading them reports them.
 */
export function fixtureFilesOf(cwd: string, paths: readonly string[]): string[] {
  if (paths.length > 0) return paths.flatMap((path) => expand(resolve(path)));
  const files = fixtureFileNames.map((name) => join(cwd, name)).filter(isFile);
  return [...files, ...filesIn(join(cwd, fixtureFolderName))];
}

function expand(path: string): string[] {
  return isDirectory(path) ? filesIn(path) : [path];
}

function filesIn(folder: string): string[] {
  if (!isDirectory(folder)) return [];
  return fastGlob.sync(fixturePattern, { cwd: folder, onlyFiles: true, absolute: true }).sort();
}

function isFile(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isFile() === true;
}

function isDirectory(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
}
