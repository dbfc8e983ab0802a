import { normalizePath } from "./normalize-path.js";
import { isUnknown, unknownText } from "./unknown.js";

/**
 * Symbolic links the line makes (`ln -s ~ x`), so a path through one reads as the path the kernel opens:
 * `rm -rf x/` or `rm -rf x/*` deletes what is in the home folder. A path naming the link itself (`rm x`)
 * is the link, and stays as written, except for `cd x`, which enters what it points to.
 */

// ln's options that take a value (`-S .bak`, `-t dir`); the rest are letters alone.
const valuedShort = new Set(["S", "t"]);

/** The links `ln -s` makes, as absolute link path → what it points to (absolute, or unknown). */
export function linksMadeBy(args: readonly string[], cwd: string | undefined, home: string | undefined): [string, string][] {
  const operands: string[] = [];
  let symbolic = false;
  let folder: string | undefined;
  let options = true;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (options && arg === "--") options = false;
    else if (options && arg.startsWith("--")) {
      if (arg === "--symbolic") symbolic = true;
      if (arg.startsWith("--target-directory=")) folder = withHome(arg.slice("--target-directory=".length), home);
    } else if (options && arg.startsWith("-") && arg.length > 1) {
      if (arg.includes("s")) symbolic = true;
      const valued = [...arg.slice(1)].findIndex((letter) => valuedShort.has(letter));
      if (valued !== -1) {
        const value = arg.slice(valued + 2) || args[++index];
        if (arg[valued + 1] === "t" && value !== undefined) folder = withHome(value, home);
      }
    } else operands.push(withHome(arg, home));
  }
  if (!symbolic || operands.length === 0) return [];
  const links: [string, string][] = [];
  for (const [target, name] of linkNames(operands, folder)) {
    const link = absolute(name, cwd);
    if (link !== undefined) links.push([link, pointsTo(target, link)]);
  }
  return links;
}

/** Each target with the names its link may take: `ln -s t name` makes `name`, or `name/t` when `name` is a folder. */
function linkNames(operands: readonly string[], folder: string | undefined): [string, string][] {
  if (folder !== undefined) return operands.map((target) => [target, `${folder}/${baseName(target)}`]);
  if (operands.length === 1) return [[operands[0]!, baseName(operands[0]!)]];
  const last = operands.at(-1)!;
  const names = operands
    .slice(0, -1)
    .filter((target) => !/^\.{0,2}$/.test(baseName(target)))
    .map((target): [string, string] => [target, `${last}/${baseName(target)}`]);
  return operands.length === 2 ? [[operands[0]!, last], ...names] : names;
}

/**
 * The path an argument opens once the links are followed: `x/a` with `x` → `/home/dev` is `/home/dev/a`.
 * The path is walked segment by segment as the kernel does, so `..` after a link leaves what it points to.
 */
export function throughLinks(arg: string, cwd: string | undefined, links: ReadonlyMap<string, string>, entering = false): string {
  if (arg.startsWith("-") || isUnknown(arg) || (!entering && !arg.includes("/"))) return arg;
  const written = arg.startsWith("/") ? arg : cwd === undefined ? undefined : `${cwd}/${arg}`;
  if (written === undefined) return arg;
  const segments = written.split("/").filter((segment) => segment !== "" && segment !== ".");
  let path = "";
  let followed = false;
  for (const [index, segment] of segments.entries()) {
    path = segment === ".." ? path.slice(0, Math.max(path.lastIndexOf("/"), 0)) : `${path}/${segment}`;
    const target = links.get(path);
    // Only a path that goes on past the link (`x/`, `x/*`, `x/a`) passes through it, or the link itself for `cd x`.
    const last = index === segments.length - 1;
    if (target === undefined || (last && !entering && !arg.endsWith("/"))) continue;
    // `ln -s ~ /tmp` made `/tmp/dev` when `/tmp` is a folder: the longer name is the link the path names.
    if (!last && links.has(`${path}/${segments[index + 1]}`)) continue;
    if (isUnknown(target)) return unknownText;
    path = target === "/" ? "" : target;
    followed = true;
  }
  if (!followed) return arg;
  return `${path || "/"}${arg.endsWith("/") && path !== "" ? "/" : ""}`;
}

function pointsTo(target: string, link: string): string {
  if (isUnknown(target) || target.includes("$") || target.startsWith("~")) return unknownText;
  // A relative target is read from the folder that holds the link.
  return target.startsWith("/") ? normalizePath(target) : normalizePath(`${link.slice(0, link.lastIndexOf("/"))}/${target}`);
}

/** Arguments keep their `~` (the rules expand it), where bash gave ln the home folder. */
function withHome(path: string, home: string | undefined): string {
  if (path !== "~" && !path.startsWith("~/")) return path;
  return home === undefined ? unknownText : home + path.slice(1);
}

/** Where a link is made: the path as given, folded (the folders it names are the line's, not links). */
function absolute(path: string, cwd: string | undefined): string | undefined {
  if (path.startsWith("/")) return normalizePath(path);
  return cwd === undefined ? undefined : normalizePath(`${cwd}/${path}`);
}

function baseName(path: string): string {
  const trimmed = path.replace(/\/+$/, "");
  return trimmed.slice(trimmed.lastIndexOf("/") + 1);
}
