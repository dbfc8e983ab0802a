import type { PolicyContext } from "@toolgate/plugin-sdk";
import type { PolicyJson } from "./cedar-wasm.js";
import { contextPath } from "./context-reads.js";
import { isReservedKey, keptByCedar, wellFormed } from "./request.js";

type Expr = Record<string, unknown>;
type Outcome = boolean | "unknown";

/**
 * One test at the head of a policy's first `when` clause that toolgate can answer exactly as Cedar
 * would, without Cedar: `context… has a`, `context… like "…"`, `context… == "…"`, `["…"].contains(context…)`.
 */
type Test = (read: ContextReader) => Outcome;

/** The call's context as the tests read it, each string looked up and checked once per call. */
export interface ContextReader {
  lookup(path: readonly string[]): Lookup;
  string(path: StringPath): string | undefined;
}

/** A path to a string the tests compare, with the key its value is kept under for the call (made once, with the test). */
interface StringPath {
  readonly path: readonly string[];
  readonly key: string;
}

const stringPath = (path: readonly string[]): StringPath => ({ path, key: path.join("\u0000") });

export function contextReader(context: PolicyContext): ContextReader {
  const strings = new Map<string, string | undefined>();
  return {
    lookup: (path) => lookup(context, path),
    string({ path, key }) {
      if (strings.has(key)) return strings.get(key);
      const value = stringAt(context, path);
      strings.set(key, value);
      return value;
    },
  };
}

/**
 * The tests a policy's condition starts with: its first clause is `when { t1 && t2 && … }`, and Cedar
 * evaluates `&&` from the left and stops at the first false. When t1…tk-1 hold and tk is false, the
 * policy is not satisfied and cannot have failed, so leaving it out of the request changes nothing
 * in Cedar's answer. Only the leading tests toolgate reads are kept; the first it does not read ends
 * the list. `whole`: the tests are the policy's entire condition (no other clause, no other conjunct),
 * so when every one holds the policy is satisfied, without an error, as Cedar would find it.
 */
export interface Guard {
  readonly tests: readonly Test[];
  readonly whole: boolean;
}

export function guardOf(policy: PolicyJson): Guard {
  const [first, ...others] = policy.conditions;
  if (first === undefined) return { tests: [], whole: true };
  if (first.kind !== "when") return { tests: [], whole: false };
  const tests: Test[] = [];
  for (const conjunct of conjuncts(first.body as unknown as Expr)) {
    const test = testOf(conjunct);
    if (test === undefined) return { tests, whole: false };
    tests.push(test);
  }
  return { tests, whole: others.length === 0 };
}

/**
 * What the guard says of the call's condition: `false` when a test is false after the ones before it
 * held, `true` when it is the whole condition and every test holds, else "unknown" (Cedar must judge).
 */
export function judged(guard: Guard | undefined, read: ContextReader): Outcome {
  if (guard === undefined) return "unknown";
  for (const test of guard.tests) {
    const outcome = test(read);
    if (outcome !== true) return outcome;
  }
  return guard.whole ? true : "unknown";
}

/** `a && b && c` (Cedar nests it to the left) as `[a, b, c]`. */
function conjuncts(expr: Expr): Expr[] {
  const and = expr["&&"] as { left: Expr; right: Expr } | undefined;
  return and === undefined ? [expr] : [...conjuncts(and.left), and.right];
}

function testOf(expr: Expr): Test | undefined {
  if (Object.keys(expr).length !== 1) return undefined;
  if ("has" in expr) return hasTest(expr.has as { left: Expr; attr: string | string[] });
  if ("like" in expr) return likeTest(expr.like as { left: Expr; pattern: unknown[] });
  if ("==" in expr) return equalsTest(expr["=="] as { left: Expr; right: Expr });
  if ("contains" in expr) return containsTest(expr.contains as { left: Expr; right: Expr });
  return undefined;
}

function hasTest({ left, attr }: { left: Expr; attr: string | string[] }): Test | undefined {
  const path = contextPath(left);
  if (path === undefined) return undefined;
  const attrs = Array.isArray(attr) ? attr : [attr];
  return (read) => {
    let current = read.lookup(path);
    for (const name of attrs) {
      if (!("found" in current)) return "unknown";
      const next = lookup(current.found, [name]);
      if ("error" in next) return "unknown";
      if ("missing" in next) return false;
      current = next;
    }
    return true;
  };
}

function likeTest({ left, pattern }: { left: Expr; pattern: unknown[] }): Test | undefined {
  const path = contextPath(left);
  const parts = pattern.map((part) => (part === "Wildcard" ? undefined : (part as { Literal?: unknown }).Literal));
  if (path === undefined || parts.some((part) => part !== undefined && typeof part !== "string")) return undefined;
  const matches = likeMatcher(parts as (string | undefined)[]);
  const at = stringPath(path);
  return (read) => {
    const value = read.string(at);
    return value === undefined ? "unknown" : matches(value);
  };
}

function equalsTest({ left, right }: { left: Expr; right: Expr }): Test | undefined {
  const [path, literal] = contextPath(left) !== undefined ? [contextPath(left), right.Value] : [contextPath(right), left.Value];
  if (path === undefined || typeof literal !== "string") return undefined;
  const at = stringPath(path);
  return (read) => {
    const value = read.string(at);
    return value === undefined ? "unknown" : value === literal;
  };
}

function containsTest({ left, right }: { left: Expr; right: Expr }): Test | undefined {
  const path = contextPath(right);
  const items = Array.isArray(left.Set) ? (left.Set as Expr[]).map((item) => item.Value) : undefined;
  if (path === undefined || items === undefined || !items.every((item) => typeof item === "string")) return undefined;
  const set = new Set(items as string[]);
  const at = stringPath(path);
  return (read) => {
    const value = read.string(at);
    return value === undefined ? "unknown" : set.has(value);
  };
}

type Lookup = { found: unknown } | { missing: true } | { error: true };

/** The value at `path` as Cedar would see it (see toCedarValue): missing when left out, an error when a step is not a record. */
function lookup(root: unknown, path: readonly string[]): Lookup {
  let current = root;
  for (const name of path) {
    if (typeof current !== "object" || current === null || Array.isArray(current)) return { error: true };
    const next = (current as Record<string, unknown>)[name];
    if (isReservedKey(name) || !Object.hasOwn(current, name) || !keptByCedar(next)) return { missing: true };
    current = next;
  }
  return { found: current };
}

/** A string Cedar would hold at `path` (well-formed: Cedar refuses a lone surrogate), else undefined. */
function stringAt(context: PolicyContext, path: readonly string[]): string | undefined {
  const value = lookup(context, path);
  return "found" in value && typeof value.found === "string" && wellFormed(value.found) ? value.found : undefined;
}

/**
 * Cedar's `like` (a wildcard, undefined here, matches any run of characters; the rest is literal; the
 * whole string must match). Matching UTF-16 code units gives Cedar's answer over characters: both
 * strings are well-formed, so a literal can neither start nor end inside a surrogate pair. The literal
 * runs between wildcards are found leftmost first, which finds a match whenever there is one.
 */
function likeMatcher(parts: readonly (string | undefined)[]): (text: string) => boolean {
  const runs: string[] = [""];
  for (const part of parts) {
    if (part === undefined) runs.push("");
    else runs[runs.length - 1] += part;
  }
  const [first, last] = [runs[0]!, runs.at(-1)!];
  if (runs.length === 1) return (text) => text === first;
  return (text) => {
    if (text.length < first.length + last.length || !text.startsWith(first) || !text.endsWith(last)) return false;
    let at = first.length;
    const end = text.length - last.length;
    for (const run of runs.slice(1, -1)) {
      const found = text.indexOf(run, at);
      if (found < 0 || found + run.length > end) return false;
      at = found + run.length;
    }
    return true;
  };
}
