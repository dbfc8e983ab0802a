import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { canonicalJson, sha256 } from "./digests.js";

/** The definition: every object's keys sorted, at every depth, before JSON.stringify. */
function reference(value: unknown, seen: unknown[] = []): unknown {
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "function") return "[function]";
  if (typeof value !== "object" || value === null) return value;
  if (seen.includes(value)) return "[Circular]";
  const inner = [...seen, value];
  if (Array.isArray(value)) return value.map((item) => reference(item, inner));
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") return (value as { toJSON: () => unknown }).toJSON();
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, reference((value as Record<string, unknown>)[key], inner)]),
  );
}

const deep = (depth: number): unknown => (depth === 0 ? { b: 1, a: 2 } : { next: deep(depth - 1) });
const cyclic: Record<string, unknown> = { b: 1, a: 2 };
cyclic.self = cyclic;
const inherited = Object.assign(Object.create({ z: "from the prototype" }) as object, { a: 1 });

describe("canonicalJson", () => {
  it.each([
    ["sorted flat arguments", { path: "README.md", recursive: false }],
    ["unsorted keys", { recursive: false, path: "README.md" }],
    ["nested, sorted outside and not inside", { a: { d: 1, c: [{ f: 1, e: 2 }] }, b: 2 }],
    ["numeric-like keys (own order 9, 10; sorted 10, 9)", { 9: "nine", 10: "ten" }],
    ["undefined, NaN and Infinity", { a: undefined, b: Number.NaN, c: [undefined, Number.POSITIVE_INFINITY] }],
    ["a Date and another toJSON", { at: new Date(0), custom: { toJSON: () => ({ z: 1, y: 2 }) } }],
    ["a BigInt and a function", { big: 10n, run: () => 1 }],
    ["nesting past the quick check's depth", deep(12)],
    ["a cycle", cyclic],
    ["an inherited key (not written)", inherited],
    ["a string", "text"],
    ["null and undefined", [null, undefined]],
  ])("is the sorted-keys JSON for %s", (_name, value) => {
    expect(canonicalJson(value)).toBe(JSON.stringify(reference(value)) ?? "null");
  });

  it("gives equal text for equal arguments written in any key order", () => {
    expect(canonicalJson({ b: { y: 1, x: [2, { q: 1, p: 0 }] }, a: 1 })).toBe(canonicalJson({ a: 1, b: { x: [2, { p: 0, q: 1 }], y: 1 } }));
  });
});

describe("sha256", () => {
  it("is node:crypto's digest for every call, in JavaScript first and through node:crypto later, short and long", () => {
    const texts = Array.from({ length: 40 }, (_, index) => `{"command":"rm -rf /${index}","é":"中😀"}`);
    texts.splice(3, 0, "x".repeat(5000));
    for (const text of texts) expect(sha256(text)).toBe(`sha256:${createHash("sha256").update(text).digest("hex")}`);
  });
});
