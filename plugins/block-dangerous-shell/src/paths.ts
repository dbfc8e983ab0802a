import { isUnknown, normalizePath } from "@toolgate/shell";
/**
 * Where a delete lands. `root`, `system`, `home` and `project` (the project root, its `.git`, or a
 * folder that contains the project) are catastrophic; `outside` is outside the project and the temp
 * folders; `unknown` is a target only known at run time (a variable, a command's output, stdin).
 */
export type TargetKind = "root" | "system" | "home" | "project" | "inside" | "temp" | "allowed" | "outside" | "unknown";

export interface ClassifiedTarget {
  /** The operand as written (variables expanded). */
  raw: string;
  /** The absolute path it denotes, when known. */
  path?: string;
  kind: TargetKind;
}

export interface PathContext {
  /** The project root (the host's cwd), absolute. */
  projectRoot: string;
  home: string;
  /** Temp folders: deletes strictly inside them are fine. */
  tempDirs: readonly string[];
  /** More folders where recursive deletes are allowed (option `allowDeleteIn`), absolute. */
  allowDeleteIn: readonly string[];
}

const topLevelSystem = new Set(
  "bin boot dev etc home lib lib32 lib64 libx32 media mnt opt proc root run sbin srv sys usr var snap nix Applications Library System Users Volumes private cores".split(
    " ",
  ),
);
// Folders whose direct children are system folders too (`/usr/lib`, `/var/lib`, `/System/Library`).
const systemParents = new Set(["/usr", "/usr/local", "/var", "/System", "/Library", "/private", "/private/var", "/etc", "/opt/homebrew"]);
const notSystem = new Set(["/var/tmp", "/private/tmp", "/private/var/tmp", "/private/var/folders", "/var/folders"]);

export function classifyTarget(raw: string, cwd: string | undefined, context: PathContext): ClassifiedTarget {
  if (raw === "" || raw.includes("$") || raw.includes("`") || isUnknown(raw)) return { raw, kind: "unknown" };
  const absolute = absolutePath(raw, cwd, context);
  if (absolute === undefined) return { raw, kind: "unknown" };
  const globAt = firstGlob(absolute);
  if (globAt === -1) return { raw, path: absolute, kind: classifyPath(absolute, context) };
  // `absolute` is normalized: the folder before the first glob character, and the segment that holds it.
  const slash = absolute.lastIndexOf("/", globAt);
  const base = absolute.slice(0, slash) || "/";
  const segmentEnd = absolute.indexOf("/", globAt);
  const segment = absolute.slice(slash + 1, segmentEnd === -1 ? absolute.length : segmentEnd);
  // `dir/*` empties dir, the same as deleting it; `dir/*.log` deletes some things inside it.
  const everything = /^[.*?]+$/.test(segment) || /^\{[.*?,]+\}$/.test(segment);
  if (everything && context.tempDirs.includes(base)) return { raw, path: absolute, kind: "temp" };
  if (everything || base === "/") return { raw, path: base, kind: classifyPath(base, context) };
  return { raw, path: absolute, kind: classifyPath(base === "/" ? "/-" : `${base}/-`, context) };
}

/**
 * `text.search(/[*?[]/)`, by three native searches: the paths are fresh concatenations, and a `charCodeAt` loop
 * over one not yet flattened measured several times slower.
 */
function firstGlob(text: string): number {
  return earliest(earliest(text.indexOf("*"), text.indexOf("?")), text.indexOf("["));
}

/** The smaller of two `indexOf` answers, -1 (not found) counting as none. */
function earliest(a: number, b: number): number {
  return a === -1 || (b !== -1 && b < a) ? b : a;
}

/** `raw.replace(/^(\.\/+)+/, "") || "."` for a path that starts with `./`: every leading `./`, `.//`, … taken off. */
function withoutLeadingDots(raw: string): string {
  let start = 0;
  while (raw.charCodeAt(start) === 46 && raw.charCodeAt(start + 1) === 47) {
    start += 2;
    while (raw.charCodeAt(start) === 47) start++;
  }
  return raw.slice(start) || ".";
}

function absolutePath(raw: string, cwd: string | undefined, context: PathContext): string | undefined {
  let path = raw.startsWith("./") ? withoutLeadingDots(raw) : raw;
  if (path === "~" || path.startsWith("~/")) path = context.home + path.slice(1);
  else if (path.startsWith("~") && /^~[\w.-]+(\/|$)/.test(path)) path = `/home/${path.slice(1)}`;
  if (!path.startsWith("/")) {
    if (cwd === undefined) return undefined;
    // The common case, a plain relative path (`build`, `dist/x`): no `.` segment or `//` to normalize.
    if (/^[^./][^/]*(\/[^./][^/]*)*$/.test(path)) return cwd === "/" ? `/${path}` : `${cwd}/${path}`;
    return normalizePath(`${cwd}/${path}`);
  }
  return normalizePath(path);
}

function classifyPath(path: string, context: PathContext): TargetKind {
  const { projectRoot, home } = context;
  // The common case, a path strictly inside an ordinary project: none of the checks below can change the answer.
  if (isStrictlyWithin(path, projectRoot) && !isUnsafeRoot(projectRoot, context) && !systemParents.has(projectRoot)) {
    return path === `${projectRoot}/.git` ? "project" : "inside";
  }
  if (path === "/") return "root";
  if (path === home || /^\/(home|Users)\/[^/]+$/.test(path) || path === "/root") return "home";
  if (isSystem(path)) return "system";
  if (isWithin(projectRoot, path) || path === `${projectRoot}/.git`) return "project";
  // A "project" at `/`, in the home folder itself or in a system folder makes nothing safe to delete.
  if (isWithin(path, projectRoot) && path !== projectRoot && !isUnsafeRoot(projectRoot, context)) return "inside";
  // Inside a temp folder, not the folder itself: deleting `/tmp` takes every other program's files with it.
  if (context.tempDirs.some((temp) => isStrictlyWithin(path, temp))) return "temp";
  if (context.allowDeleteIn.some((folder) => isWithin(path, folder))) return "allowed";
  return "outside";
}

// The answer for the last project asked about: a guard asks about the same project on every delete.
let lastRoot: string | undefined;
let lastHome: string | undefined;
let lastUnsafe = false;

function isUnsafeRoot(projectRoot: string, context: PathContext): boolean {
  if (projectRoot === lastRoot && context.home === lastHome) return lastUnsafe;
  lastUnsafe = projectRoot === "/" || projectRoot === context.home || isSystem(projectRoot);
  lastRoot = projectRoot;
  lastHome = context.home;
  return lastUnsafe;
}

function isSystem(path: string): boolean {
  if (notSystem.has(path)) return false;
  const parent = path.slice(0, path.lastIndexOf("/")) || "/";
  return (parent === "/" && topLevelSystem.has(path.slice(1))) || systemParents.has(parent);
}

function isStrictlyWithin(path: string, folder: string): boolean {
  return path.length > folder.length + 1 && path.charCodeAt(folder.length) === 47 && path.startsWith(folder);
}

/** Whether `path` is `folder` or inside it. */
function isWithin(path: string, folder: string): boolean {
  if (path === folder) return true;
  return path.startsWith(folder) && (folder.endsWith("/") || path.charCodeAt(folder.length) === 47);
}
