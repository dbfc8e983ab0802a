import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

let root: string | undefined;

/**
 * The folder of the @toolgate/host package. Found by walking up rather than by a fixed relative path:
 * the CLI runs from its sources (src/cli/…) in the workspace and from a bundle (dist/cli/…) once
 * installed, at different depths.
 */
export function packageRoot(): string {
  root ??= findPackageRoot(dirname(fileURLToPath(import.meta.url)));
  return root;
}

function findPackageRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json"))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${start}`);
  }
}
