import { createRequire } from "node:module";
import type { Hash } from "node:crypto";
import { setOwn } from "../call/copy-args.js";
import { sha256Hex } from "./sha256-js.js";

let nativeDigest: ((text: string) => string) | undefined;
let javaScriptDigests = 0;

/** Below this length, and for a process's first few digests, the digest is made in JavaScript (`sha256-js.ts`). */
const shortText = 4096;
/**
 * A hook process records one call: loading node:crypto (OpenSSL's start-up) would cost it more than
 * everything else its record needs. A process that keeps recording (a library host, serve) switches to
 * node:crypto after this many digests, about ten times faster per digest.
 */
const javaScriptDigestLimit = 16;

/** `sha256:` and the hex digest of `text` (as UTF-8). */
export function sha256(text: string): string {
  if (nativeDigest === undefined && text.length <= shortText && javaScriptDigests++ < javaScriptDigestLimit) return `sha256:${sha256Hex(text)}`;
  nativeDigest ??= sha256Function(createRequire(import.meta.url)("node:crypto") as typeof import("node:crypto"));
  return `sha256:${nativeDigest(text)}`;
}

// `crypto.hash` (Node 20.12+) is the one-shot form, about twice as fast on short text as a Hash object.
function sha256Function(crypto: typeof import("node:crypto")): (text: string) => string {
  const oneShot = (crypto as { hash?: (algorithm: string, text: string) => string }).hash;
  if (typeof oneShot === "function") return (text) => oneShot("sha256", text);
  return (text) => (crypto.createHash("sha256") as Hash).update(text).digest("hex");
}

/**
 * JSON with every object's keys sorted, so equal arguments give equal text whatever order they were
 * written in. Values JSON cannot hold are named rather than dropped (a function, a BigInt), and an
 * object met again inside itself is "[Circular]": a digest is always made.
 */
export function canonicalJson(value: unknown): string {
  if (isCanonical(value, 0)) return JSON.stringify(value) ?? "null";
  return JSON.stringify(sortKeys(value, [])) ?? "null";
}

/** Deeper than this, `isCanonical` gives up (a cycle, or simply deep) and `sortKeys` does the full walk. */
const maxCanonicalDepth = 8;

/**
 * Whether JSON.stringify already gives the canonical text: every key in order, no value it would drop
 * or could not write (a function, a BigInt, a `toJSON`). Arguments usually are, and then no copy is made.
 * (An inherited key only takes part in the order check: JSON.stringify writes own keys alone.)
 */
function isCanonical(value: unknown, depth: number): boolean {
  if (typeof value !== "object" || value === null) return typeof value !== "bigint" && typeof value !== "function";
  if (depth === maxCanonicalDepth) return false;
  if (Array.isArray(value)) {
    for (const item of value) if (!isCanonical(item, depth + 1)) return false;
    return true;
  }
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") return false;
  let previous: string | undefined;
  for (const key in value) {
    if (previous !== undefined && previous >= key) return false;
    previous = key;
    if (!isCanonical((value as Record<string, unknown>)[key], depth + 1)) return false;
  }
  return true;
}

function sortKeys(value: unknown, path: unknown[]): unknown {
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "function") return "[function]";
  if (typeof value !== "object" || value === null) return value;
  if (path.includes(value)) return "[Circular]";
  path.push(value);
  try {
    if (Array.isArray(value)) return value.map((item) => sortKeys(item, path));
    if (typeof (value as { toJSON?: unknown }).toJSON === "function") return (value as { toJSON: () => unknown }).toJSON();
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) setOwn(sorted, key, sortKeys((value as Record<string, unknown>)[key], path));
    return sorted;
  } finally {
    path.pop();
  }
}
