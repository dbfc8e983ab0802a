import { lstatSync, realpathSync } from "node:fs";
import { basename, dirname, posix, resolve } from "node:path";
import { createRequire } from "node:module";
import type picomatchModule from "picomatch";

/** How far a change reaches: the path itself (a file written), or everything under it too (a recursive delete, a move). */
export type Reach = "exact" | "tree";

/** One place that holds toolgate's policy, with the words a block message names it by. */
export interface ProtectedEntry {
  /** Absolute, normalised. */
  readonly path: string;
  /** What it is, for the model: `the toolgate config file`, `the plugins folder`, … */
  readonly label: string;
  /**
   * A change to a folder that holds it changes it too (`rm -rf .` deletes the config). False for the
   * installed CLI: deleting all of `node_modules` leaves the hook unable to start, and a hook that
   * cannot start denies every call, so that change fails closed and stays allowed.
   */
  readonly guardAncestors: boolean;
  /**
   * A `package.json`: a file tool may change it as long as no line naming toolgate or a configured
   * plugin changes (agents add dependencies and scripts all day); a shell write, which cannot be read, may not.
   */
  readonly manifest?: true;
}

export interface ProtectedHit {
  readonly entry: ProtectedEntry;
  /** The path the call would change, as the check worked it out. */
  readonly target: string;
}

let picomatchLoaded: typeof picomatchModule | undefined;
// Compiled globs, kept for the next calls (an agent repeats its globs): a bounded cache, emptied when full.
const globMatchers = new Map<string, (path: string) => boolean>();
const globMatchersKept = 256;

function globMatcher(pattern: string): (path: string) => boolean {
  let matcher = globMatchers.get(pattern);
  if (matcher !== undefined) return matcher;
  picomatchLoaded ??= createRequire(import.meta.url)("picomatch") as typeof picomatchModule;
  matcher = picomatchLoaded(pattern, { dot: true, bash: false });
  if (globMatchers.size >= globMatchersKept) globMatchers.clear();
  globMatchers.set(pattern, matcher);
  return matcher;
}

const globCharacters = /[*?[]/;

/**
 * The places toolgate's policy lives, and the question the protection asks of each path a call would
 * change: does it land on one of them (or, for a change that reaches a whole tree, above one)? Paths are
 * compared after `.`/`..`/`//` are folded and, where the path exists, after symlinks are resolved, so
 * `./x/../toolgate.config.ts` and a link that points at the config are the config. File names are
 * compared as bytes: a case-insensitive file system's other spellings are not recognised.
 */
export class ProtectedPaths {
  readonly entries: readonly ProtectedEntry[];
  /** Lower-case words a shell line that writes somewhere unknown must not contain (`toolgate`, `plugins`, …). */
  readonly names: readonly string[];

  constructor(entries: readonly ProtectedEntry[], names: readonly string[]) {
    const all = new Map<string, ProtectedEntry>();
    for (const entry of entries) {
      const path = posix.normalize(entry.path);
      if (!all.has(path)) all.set(path, { ...entry, path });
      const real = realPath(path);
      if (real !== path && !all.has(real)) all.set(real, { ...entry, path: real });
    }
    this.entries = [...all.values()];
    this.names = [...new Set(names.map((name) => name.toLowerCase()).filter((name) => name.length >= 3))];
  }

  /** Existing paths and their real paths (null: none there), for one call: a line's paths share folders. */
  readonly #realPaths = new Map<string, string | null>();

  /** Starts a call's check: what the file system held for the last call is asked again. */
  beginCall(): void {
    this.#realPaths.clear();
  }

  /** The entry an absolute path (which may hold glob characters) lands on, if any. */
  hit(path: string, reach: Reach): ProtectedHit | undefined {
    if (globCharacters.test(path)) return this.#globHit(path, reach);
    const normal = posix.normalize(path);
    const real = realPath(normal, this.#realPaths);
    for (const candidate of real === normal ? [normal] : [normal, real]) {
      const entry = this.entries.find((each) => isWithin(candidate, each.path) || (reach === "tree" && each.guardAncestors && isWithin(each.path, candidate)));
      if (entry) return { entry, target: candidate };
    }
    return undefined;
  }

  /**
   * A path whose start is only known at run time (`$DIR/toolgate.config.ts`, a relative path after a `cd`
   * to an unknown folder), known from `tail` on: the entry whose path could end that way.
   */
  hitByTail(tail: string, reach: Reach, raw: string): ProtectedHit | undefined {
    const entry = this.entries.find((each) => {
      if (each.path.endsWith(tail)) return true;
      if (reach !== "tree" || !each.guardAncestors) return false;
      // `rm -rf $X/plugins/..`-like tails are not given here; `rm -rf $X/proj` may be the project itself.
      for (let folder = dirname(each.path); folder !== dirname(folder); folder = dirname(folder)) if (folder.endsWith(tail)) return true;
      return false;
    });
    return entry === undefined ? undefined : { entry, target: raw };
  }

  /** The first protected name `text` holds (lower-cased), for a write whose target cannot be worked out. */
  nameIn(text: string): string | undefined {
    const lower = text.toLowerCase();
    return this.names.find((name) => lower.includes(name));
  }

  #globHit(pattern: string, reach: Reach): ProtectedHit | undefined {
    const matches = globMatcher(posix.normalize(pattern));
    // The folder before the first glob character: a glob inside a protected folder changes it.
    const literal = pattern.slice(0, pattern.search(globCharacters));
    const base = literal.slice(0, literal.lastIndexOf("/")) || "/";
    for (const entry of this.entries) {
      if (matches(entry.path) || isWithin(base, entry.path)) return { entry, target: pattern };
      if (reach !== "tree" || !entry.guardAncestors) continue;
      for (let folder = dirname(entry.path); folder !== dirname(folder); folder = dirname(folder)) if (matches(folder)) return { entry, target: pattern };
    }
    return undefined;
  }
}

/** Whether `path` is `folder` or inside it (both normalised). */
function isWithin(path: string, folder: string): boolean {
  if (path === folder) return true;
  if (folder === "/") return path.startsWith("/");
  return path.startsWith(folder) && path.charCodeAt(folder.length) === 47;
}

/**
 * The path with every symlink in its existing part resolved (`realpath` of the longest existing prefix,
 * the rest appended): a link in the project that points at the config is the config.
 */
function realPath(path: string, known = new Map<string, string | null>()): string {
  let existing = path;
  let rest = "";
  for (let depth = 0; depth < 64; depth++) {
    let real = known.get(existing);
    if (real === undefined) {
      real = realIfExists(existing);
      known.set(existing, real);
    }
    if (real !== null) return rest === "" ? real : resolve(real, rest);
    const parent = dirname(existing);
    if (parent === existing) return path;
    rest = rest === "" ? basename(existing) : `${basename(existing)}/${rest}`;
    existing = parent;
  }
  return path;
}

function realIfExists(path: string): string | null {
  // Most paths a line names do not exist yet: asking lstat first spares realpath's thrown error for each.
  if (lstatSync(path, { throwIfNoEntry: false }) === undefined) return null;
  try {
    return realpathSync.native(path);
  } catch {
    return null;
  }
}
