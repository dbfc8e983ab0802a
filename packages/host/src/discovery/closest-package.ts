import { readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { distance } from "fastest-levenshtein";

/**
 * The installed package whose name is closest to a mistyped `name` (`toolgate-plugin-budegt`), for a
 * "did you mean" hint: the names in `node_modules` of `cwd` and each folder above it. Only read when a
 * named package is missing, and never loaded: it only names a candidate.
 */
export function closestInstalledPackage(name: string, cwd: string): string | undefined {
  const allowed = Math.max(2, Math.floor(name.length / 4));
  let best: { name: string; distance: number } | undefined;
  for (const candidate of installedPackageNames(cwd)) {
    const candidateDistance = distance(name.toLowerCase(), candidate.toLowerCase());
    if (candidateDistance <= allowed && (best === undefined || candidateDistance < best.distance)) best = { name: candidate, distance: candidateDistance };
  }
  return best?.name;
}

function installedPackageNames(cwd: string): Set<string> {
  const names = new Set<string>();
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const modules = join(dir, "node_modules");
    for (const entry of entriesOf(modules)) {
      if (entry.startsWith(".")) continue;
      if (!entry.startsWith("@")) names.add(entry);
      else for (const scoped of entriesOf(join(modules, entry))) names.add(`${entry}/${scoped}`);
    }
    if (dirname(dir) === dir) return names;
  }
}

function entriesOf(folder: string): string[] {
  try {
    return readdirSync(folder);
  } catch {
    return [];
  }
}
