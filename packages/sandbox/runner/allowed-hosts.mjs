// Plain JavaScript, run by Node.js 20 as shipped (no build): the allow-list of `network: { allow: [...] }`.
import { isIP } from "node:net";

const label = "[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?";
const hostName = new RegExp(`^${label}(?:\\.${label})*$`);

/** A host as asked (any case, a trailing dot, IPv6 in brackets or not) in the one form patterns are compared with. */
export function normalizeHost(host) {
  let name = String(host).toLowerCase();
  if (name.startsWith("[") && name.endsWith("]")) name = name.slice(1, -1);
  if (name.endsWith(".") && isIP(name) === 0) name = name.slice(0, -1);
  return name;
}

/** Why `pattern` cannot be an entry of the allow-list, or undefined when it can: a host name, `*.` and a name, or an IP address. */
export function patternProblem(pattern) {
  if (typeof pattern !== "string" || pattern === "") return "an entry is not a host name";
  const name = normalizeHost(pattern);
  if (isIP(name) !== 0) return undefined;
  const rest = name.startsWith("*.") ? name.slice(2) : name;
  if (hostName.test(rest)) return undefined;
  return `"${pattern}" is not a host name, "*." and a host name (such as "*.github.com"), or an IP address`;
}

/**
 * Whether `host` may be reached under `patterns`: a name matches an entry equal to it, or `*.suffix` when it
 * ends with `.suffix` (`*.github.com` matches `api.github.com`, not `github.com`). An IP address matches only
 * itself listed. Names are matched as asked, before any DNS lookup.
 */
export function isAllowedHost(host, patterns) {
  const name = normalizeHost(host);
  const ip = isIP(name) !== 0;
  if (!ip && !hostName.test(name)) return false;
  return patterns.some((pattern) => {
    const entry = normalizeHost(pattern);
    if (entry === name) return true;
    return !ip && entry.startsWith("*.") && name.endsWith(entry.slice(1));
  });
}
