import { type Dirent, lstatSync, readdirSync, realpathSync, type Stats } from "node:fs";
import { basename, dirname, posix } from "node:path";
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
  // bash's `[!…]` is a negated set, as `[^…]` is; picomatch reads only the second.
  matcher = picomatchLoaded(pattern.replaceAll("[!", "[^"), { dot: true, bash: false });
  if (globMatchers.size >= globMatchersKept) globMatchers.clear();
  globMatchers.set(pattern, matcher);
  return matcher;
}

const globCharacters = /[*?[]/;
/** What `posix.normalize` changes in an absolute path: `//`, a `.` or `..` part, a `/` at the end. A path without them is normal already. */
const notNormal = /\/(?:\.{1,2})?(?:\/|$)|^(?!\/)/;
/** Where picomatch's syntax may begin (globs, braces, extglobs, escapes): the text before it matches as written. */
const globSyntax = /[*?[{(!+@\\]/;

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

  /**
   * `root` (the host's folder) may start the walk to a real path: see `#realPath`. Without it every
   * path is walked from `/`.
   */
  constructor(entries: readonly ProtectedEntry[], names: readonly string[], root?: string) {
    const all = new Map<string, ProtectedEntry>();
    // The entries share most of their folders: each is asked of the file system once.
    const known = new Map<string, string | null>();
    this.#root = root === undefined ? undefined : trustedRoot(posix.normalize(root), known);
    for (const entry of entries) {
      const path = posix.normalize(entry.path);
      if (!all.has(path)) all.set(path, { ...entry, path });
      const real = realPath(path, known);
      if (real !== path && !all.has(real)) all.set(real, { ...entry, path: real });
    }
    this.entries = [...all.values()];
    this.#above = this.entries.map((entry) => (entry.guardAncestors ? foldersAbove(entry.path) : []));
    this.#inside = this.entries.map((entry) => (entry.path === "/" ? "/" : `${entry.path}/`));
    this.names = [...new Set(names.map((name) => name.toLowerCase()).filter((name) => name.length >= 3))];
  }

  /** The folders above each entry that guards them, innermost first, by the entry's index: a line asks for them once per change. */
  readonly #above: readonly (readonly string[])[];
  /** Each entry's path with a `/` after it (as `#mayMatchInside` reads a folder), by the entry's index. */
  readonly #inside: readonly string[];
  /** Existing paths and their real paths (null: none there), for one call: a line's paths share folders. */
  #realPaths: Map<string, string | null> | undefined;
  /** What protected folders hold, for one call's globs. */
  #listings: Map<string, readonly string[] | undefined> | undefined;

  /** The host's folder as it was when the paths were built; undefined when it cannot start a walk. */
  readonly #root: TrustedRoot | undefined;
  /** Whether the root is still that folder, asked once per call; undefined: not asked yet. */
  #rootHolds: boolean | undefined;

  /** Starts a call's check: what the file system held for the last call is asked again. */
  beginCall(): void {
    // New maps when a call needs them: emptying one allocates as much, on every call.
    this.#realPaths = undefined;
    this.#listings = undefined;
    this.#rootHolds = undefined;
  }

  /**
   * The real path of `path`. Below the root, while the root is still the very folder it was at startup
   * (not a link, same device and inode), the walk starts at the root's real path: only the parts below
   * it are asked of the file system, so a link made in the project since startup is still followed,
   * and a project folder replaced by a link since startup sends every path back to the walk from `/`.
   */
  #realPath(path: string): string {
    const root = this.#root;
    const known = (this.#realPaths ??= new Map());
    if (root === undefined || !isWithin(path, root.path)) return realPath(path, known);
    this.#rootHolds ??= rootHolds(root);
    if (!this.#rootHolds) return realPath(path, known);
    return realPath(path, known, root.real, root.path.length + 1);
  }

  /** The entry an absolute path (which may hold glob characters) lands on, if any. */
  hit(path: string, reach: Reach): ProtectedHit | undefined {
    if (globCharacters.test(path)) return this.#globHit(path, reach);
    const normal = notNormal.test(path) ? posix.normalize(path) : path;
    const real = this.#realPath(normal);
    return this.#within(normal, reach) ?? (real === normal ? undefined : this.#within(real, reach));
  }

  #within(candidate: string, reach: Reach): ProtectedHit | undefined {
    const entries = this.entries;
    for (let index = 0; index < entries.length; index++) {
      const entry = entries[index]!;
      if (isWithin(candidate, entry.path) || (reach === "tree" && entry.guardAncestors && isWithin(entry.path, candidate))) return { entry, target: candidate };
    }
    return undefined;
  }

  /**
   * A path whose start is only known at run time (`$DIR/toolgate.config.ts`, a relative path after a `cd`
   * to an unknown folder), known from `tail` on: the entry whose path could end that way.
   */
  hitByTail(tail: string, reach: Reach, raw: string): ProtectedHit | undefined {
    // `rm -rf $X/plugins/..`-like tails are not given here; `rm -rf $X/proj` may be the project itself.
    const ends = (path: string) => path.endsWith(tail);
    return this.#firstHit(reach, raw, ends, ends);
  }

  /**
   * A glob known from `tail` on (`$X/plug*`, `*` after a `cd` to a folder only known at run time): the entry
   * it could end at (or, for a recursive change, above), or reach into through the entry's last parts.
   */
  hitByGlobTail(tail: string, reach: Reach, raw: string): ProtectedHit | undefined {
    return this.#firstHit(
      reach,
      raw,
      (path) => tailReaches(tail, path, true),
      (folder) => tailReaches(tail, folder, false),
    );
  }

  /** The first protected name `text` holds (lower-cased), for a write whose target cannot be worked out. */
  nameIn(text: string): string | undefined {
    const lower = text.toLowerCase();
    return this.names.find((name) => lower.includes(name));
  }

  #globHit(pattern: string, reach: Reach): ProtectedHit | undefined {
    const normal = posix.normalize(pattern);
    // Only a path that starts with the pattern's plain part can match it: the matcher is asked of those alone.
    const plain = normal.slice(0, Math.max(0, normal.search(globSyntax)));
    // Compiled only when a path starts with the plain part: most globs of a line are near no entry.
    let matches: ((path: string) => boolean) | undefined;
    const matchesPath = (path: string) => path.startsWith(plain) && (matches ??= globMatcher(normal))(path);
    return this.#firstHit(reach, pattern, (path) => matchesPath(path) || this.#mayMatchInside(normal, plain, matchesPath, path), matchesPath, plain);
  }

  /**
   * The first entry whose path `atEntry` holds for or, for a recursive change to a folder above an entry
   * that guards its folders, whose folder above `aboveEntry` holds for.
   */
  #firstHit(
    reach: Reach,
    target: string,
    atEntry: (path: string) => boolean,
    aboveEntry: (folder: string) => boolean,
    plain?: string,
  ): ProtectedHit | undefined {
    const entries = this.entries;
    for (let index = 0; index < entries.length; index++) {
      const entry = entries[index]!;
      // A glob whose plain start neither holds the entry's folder nor lies inside it reaches neither the entry nor a folder above it.
      if (plain !== undefined && !prefixRelated(plain, this.#inside[index]!)) continue;
      if (atEntry(entry.path)) return { entry, target };
      if (reach !== "tree") continue;
      const folders = this.#above[index]!;
      for (let at = 0; at < folders.length; at++) if (aboveEntry(folders[at]!)) return { entry, target };
    }
    return undefined;
  }

  /**
   * Whether a glob may name something inside `folder`: it starts inside the folder; or its first segments
   * match the folder's and more follow; or, with a `**` that may start at or above the folder, it matches
   * something the folder holds. A brace or extglob that holds a `/` may, whenever it could start above.
   */
  #mayMatchInside(pattern: string, plain: string, matchesPath: (path: string) => boolean, folder: string): boolean {
    const inside = folder === "/" ? "/" : `${folder}/`;
    if (plain.startsWith(inside)) return true;
    if (!inside.startsWith(plain)) return false;
    if (slashInGroup.test(pattern)) return true;
    if (pattern.includes("**")) return this.#contents(folder)?.some(matchesPath) ?? true;
    return leadingSegmentsMatch(pattern, folder);
  }

  /** Everything below `folder`, for one call; undefined when there is more than a policy folder holds. */
  #contents(folder: string): readonly string[] | undefined {
    const listings = (this.#listings ??= new Map());
    if (!listings.has(folder)) listings.set(folder, listTree(folder, contentsLimit));
    return listings.get(folder);
  }
}

/** The folders above `path`, innermost first, `/` excluded (as the walk that asked for them never reached it). */
function foldersAbove(path: string): string[] {
  const folders: string[] = [];
  for (let folder = dirname(path); folder !== dirname(folder); folder = dirname(folder)) folders.push(folder);
  return folders;
}

/** Braces or extglobs that hold a `/`: their segments cannot be matched one by one. */
const slashInGroup = /[{(][^})]*\//;
const contentsLimit = 10_000;

/**
 * Whether a path that ends with the glob `tail` (`/plug*`, `/**\/guard.*`) could be `path`, or (`inside`)
 * lie inside it with the tail's first parts matching the path's last ones.
 */
function tailReaches(tail: string, path: string, inside: boolean): boolean {
  const tailParts = tail.split("/").slice(1);
  const pathParts = path.split("/").slice(1);
  const globstar = tailParts.indexOf("**");
  if (globstar !== -1) {
    const matches = globMatcher(tailParts.join("/"));
    for (let start = 0; start < pathParts.length; start++) if (matches(pathParts.slice(start).join("/"))) return true;
  } else if (tailParts.length <= pathParts.length && partsMatch(tailParts, pathParts.slice(-tailParts.length))) return true;
  if (!inside) return false;
  const leading = globstar === -1 ? tailParts.length - 1 : globstar;
  for (let count = Math.min(leading, pathParts.length); count >= 1; count--) if (partsMatch(tailParts.slice(0, count), pathParts.slice(-count))) return true;
  return false;
}

function partsMatch(globs: readonly string[], parts: readonly string[]): boolean {
  return globs.every((glob, index) => glob === parts[index] || (glob !== "" && globMatcher(glob)(parts[index]!)));
}

/** Whether the glob has more segments than `folder` and its first ones match the folder's. */
function leadingSegmentsMatch(pattern: string, folder: string): boolean {
  const patternParts = pattern.split("/");
  const folderParts = folder.split("/");
  return patternParts.length > folderParts.length && partsMatch(patternParts.slice(0, folderParts.length), folderParts);
}

/** The paths below `folder` (none for a file or nothing), or undefined past `limit` of them. Links are listed, not followed. */
function listTree(folder: string, limit: number): string[] | undefined {
  const found: string[] = [];
  const pending = [folder];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    for (const item of readFolder(next)) {
      const path = `${next}/${item.name}`;
      found.push(path);
      if (found.length > limit) return undefined;
      if (item.isDirectory()) pending.push(path);
    }
  }
  return found;
}

function readFolder(path: string): Dirent[] {
  try {
    return readdirSync(path, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return [];
    throw error;
  }
}

/** Whether `path` is `folder` or inside it (both normalised). */
function isWithin(path: string, folder: string): boolean {
  if (path === folder) return true;
  if (folder === "/") return path.startsWith("/");
  // The `/` after the folder first: most paths fail that (a shorter path, another name's length) without a comparison of their texts.
  return path.charCodeAt(folder.length) === 47 && path.startsWith(folder);
}

/** Whether one of the two texts starts with the other. */
function prefixRelated(a: string, b: string): boolean {
  return a.length <= b.length ? b.startsWith(a) : a.startsWith(b);
}

/**
 * The path with every symlink in its existing part resolved (the real path of the longest existing prefix,
 * the rest appended): a link in the project that points at the config is the config. The walk goes down from
 * `/` and stops at the first part that does not exist, since nothing can be below it; `known` keeps each
 * prefix's answer, so paths of one line that share folders ask the file system once per folder.
 */
function realPath(path: string, known = new Map<string, string | null>(), from = "/", fromIndex = 1): string {
  let real = from;
  for (let start = fromIndex; start < path.length; ) {
    const slash = path.indexOf("/", start);
    const end = slash === -1 ? path.length : slash;
    const prefix = path.slice(0, end);
    let resolved = known.get(prefix);
    if (resolved === undefined) {
      resolved = realOfPart(prefix, real);
      known.set(prefix, resolved);
    }
    if (resolved === null) return below(real, path.slice(start));
    real = resolved;
    start = end + 1;
  }
  return real;
}

/** The host's folder as the paths were built: its path, real path and identity. */
interface TrustedRoot {
  readonly path: string;
  readonly real: string;
  readonly dev: number;
  readonly ino: number;
}

/** The root a walk may start at: a folder that is no link, and not `/` (which the walk starts at anyway). */
function trustedRoot(path: string, known: Map<string, string | null>): TrustedRoot | undefined {
  const stats = path === "/" ? undefined : lstatOrNothing(path);
  if (stats === undefined || !stats.isDirectory()) return undefined;
  return { path, real: realPath(path, known), dev: stats.dev, ino: stats.ino };
}

/**
 * Whether the root's path still names the folder it named at startup. A directory has one parent, so
 * the same folder reached by the same path has the same real path unless a folder above the project
 * was moved and linked back, which moves the whole policy home out from under the paths built at startup.
 */
function rootHolds(root: TrustedRoot): boolean {
  const stats = lstatOrNothing(root.path);
  return stats?.isDirectory() === true && stats.dev === root.dev && stats.ino === root.ino;
}

/** The real path of `prefix`, given its folder's (`realFolder`); null when nothing is there. */
function realOfPart(prefix: string, realFolder: string): string | null {
  const stats = lstatOrNothing(prefix);
  if (stats === undefined) return null;
  if (stats.isSymbolicLink()) {
    try {
      return realpathSync.native(prefix);
    } catch {
      return null; // a dangling link: compared by its own path
    }
  }
  return below(realFolder, basename(prefix));
}

function lstatOrNothing(path: string): Stats | undefined {
  try {
    return lstatSync(path, { throwIfNoEntry: false });
  } catch (error) {
    // A part that is a file (`config.ts/x`) has nothing below it; any other failure stays an error, which denies.
    if ((error as NodeJS.ErrnoException).code === "ENOTDIR") return undefined;
    throw error;
  }
}

function below(folder: string, rest: string): string {
  return folder === "/" ? `/${rest}` : `${folder}/${rest}`;
}
