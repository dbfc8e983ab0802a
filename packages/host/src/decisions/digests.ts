import { createRequire } from "node:module";
import type { Hash } from "node:crypto";
import { setOwn } from "../gate/copy-args.js";
import { sha256Hex } from "./sha256-js.js";

// node:crypto loads on the first long digest only.
let hexDigest: ((text: string) => string) | undefined;

/** Below this length the digest is made in JavaScript (`sha256-js.ts`), with no node:crypto to load. */
const shortText = 4096;

/** `sha256:` and the hex digest of `text` (as UTF-8). */
export function sha256(text: string): string {
  if (text.length <= shortText) return `sha256:${sha256Hex(text)}`;
  hexDigest ??= sha256Function(createRequire(import.meta.url)("node:crypto") as typeof import("node:crypto"));
  return `sha256:${hexDigest(text)}`;
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
  return JSON.stringify(sortKeys(value, [])) ?? "null";
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
