/** `/\/\.\.?(\/|$)|\/\/|.\/$/`: a `.` or `..` segment, a doubled `/`, or a trailing `/` (on more than `/` itself). */
function needsNormalizing(path: string): boolean {
  const last = path.length - 1;
  for (let index = 0; index < last; index++) {
    if (path.charCodeAt(index) !== 47) continue;
    const next = path.charCodeAt(index + 1);
    if (next === 47) return true;
    if (next !== 46) continue;
    // `/.` then the end or `/`; or `/..` then the end or `/`
    const after = index + 2 > last ? -1 : path.charCodeAt(index + 2);
    if (after === -1 || after === 47) return true;
    if (after === 46 && (index + 3 > last || path.charCodeAt(index + 3) === 47)) return true;
  }
  return last > 0 && path.charCodeAt(last) === 47;
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
