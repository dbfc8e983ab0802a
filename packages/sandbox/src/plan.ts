import { existsSync, realpathSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, relative, sep } from "node:path";
import type { SandboxPlan } from "./bwrap-arguments.js";
import type { ResolvedSandboxOptions } from "./options.js";

/**
 * What a contained command may touch in `projectRoot`, or why nothing may be contained there: a project that
 * is `/`, the home folder or one of its ancestors would hand the whole of it to the command.
 */
export function planFor(
  options: ResolvedSandboxOptions,
  projectRoot: string,
  policyPaths: readonly string[],
  home = homedir(),
): SandboxPlan | { problem: string } {
  const root = realPath(projectRoot);
  if (root === undefined) return { problem: `the project folder ${projectRoot} does not exist` };
  const realHome = realPath(home) ?? home;
  if (root === "/" || isInside(realHome, root))
    return {
      problem: `the project folder ${root} is ${root === "/" ? "the root of the file system" : "the home folder or holds it"}: a sandbox that may write it protects nothing`,
    };
  const writable = unique(options.writable.map(realPath).filter((path): path is string => path !== undefined));
  const areas = [root, ...writable];
  const readOnly = unique(policyPaths.flatMap((path) => policyMount(path, areas)));
  const hidden = options.hidden.flatMap((path) => {
    const real = realPath(path);
    return real === undefined ? [] : [{ path: real, folder: statSync(real).isDirectory() }];
  });
  return { projectRoot: root, writable, readOnly, hidden, network: options.network };
}

/**
 * The mount that keeps one policy path read-only: the path when it exists, else its nearest existing folder
 * below the writable area that holds it (a missing `.claude/settings.local.json` keeps `.claude/` read-only).
 * A path whose nearest existing folder is the area itself can only be covered by creating it; that is left
 * to the host's policy protection, which refuses the commands it can read that would create it.
 */
function policyMount(path: string, areas: readonly string[]): string[] {
  const area = areas.find((candidate) => isInside(path, candidate) && path !== candidate);
  if (area === undefined) return [];
  for (let current = path; current !== area; current = dirname(current)) {
    const real = realPath(current);
    if (real !== undefined) return isInside(real, area) && real !== area ? [real] : [];
  }
  return [];
}

function realPath(path: string): string | undefined {
  try {
    return existsSync(path) ? realpathSync(path) : undefined;
  } catch {
    return undefined;
  }
}

function isInside(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !rel.startsWith(sep));
}

function unique(paths: readonly string[]): string[] {
  return [...new Set(paths)];
}
