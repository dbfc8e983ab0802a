/**
 * `/\/\.\.?(\/|$)|\/\/|.\/$/`: a `.` or `..` segment, a doubled `/`, or a trailing `/` (on more than `/` itself).
 * Native searches, not a loop over every character: the paths are mostly fresh concatenations (`${cwd}/${path}`),
 * and a `charCodeAt` loop over one not yet flattened measured several times slower.
 */
function needsNormalizing(path: string): boolean {
  const last = path.length - 1;
  if (last > 0 && path.charCodeAt(last) === 47) return true;
  if (path.includes("//")) return true;
  for (let slash = path.indexOf("/."); slash !== -1; slash = path.indexOf("/.", slash + 1)) {
    // `/.` then the end or `/`; or `/..` then the end or `/`
    const after = slash + 2 > last ? -1 : path.charCodeAt(slash + 2);
    if (after === -1 || after === 47) return true;
    if (after === 46 && (slash + 3 > last || path.charCodeAt(slash + 3) === 47)) return true;
  }
  return false;
}

/** `posix.resolve` for a path that is already absolute: `.`, `..` and `//` folded, no trailing `/`. */
export function normalizePath(path: string): string {
  if (!needsNormalizing(path)) return path;
  // Segment by segment, without a list: `..` cuts the last segment off what is built so far.
  let result = "";
  for (let start = 0; start <= path.length; ) {
    const slash = path.indexOf("/", start);
    const end = slash === -1 ? path.length : slash;
    const segment = path.slice(start, end);
    if (segment === "..") result = result.slice(0, Math.max(result.lastIndexOf("/"), 0));
    else if (segment !== "" && segment !== ".") result += `/${segment}`;
    start = end + 1;
  }
  return result === "" ? "/" : result;
}
