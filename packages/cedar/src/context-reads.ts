import type { PolicyJson } from "./cedar-wasm.js";

/**
 * What a set of policies reads of `context`, as a tree of attribute paths. `whole`: the value is read
 * as such (compared, matched, passed to a function), so it goes to Cedar in full. Otherwise only the
 * children listed are looked into; a child with neither is only tested with `has`.
 */
export interface ContextReads {
  whole: boolean;
  readonly children: Map<string, ContextReads>;
}

type Expr = Record<string, unknown>;

const node = (): ContextReads => ({ whole: false, children: new Map() });

/** Every value in full: for a policy set toolgate could not read as JSON. */
export const readsEverything: ContextReads = { whole: true, children: new Map() };

/** The union of what the policies' conditions read of `context` (the scope never reads it). */
export function contextReads(policies: readonly PolicyJson[]): ContextReads {
  const root = node();
  for (const policy of policies) for (const condition of policy.conditions) readExpr(condition.body as unknown as Expr, root);
  return root;
}

function at(root: ContextReads, path: readonly string[]): ContextReads {
  let current = root;
  for (const attr of path) {
    let child = current.children.get(attr);
    if (child === undefined) {
      child = node();
      current.children.set(attr, child);
    }
    current = child;
  }
  return current;
}

/** `context`, `context.a`, `context.a.b`: the attribute path, or undefined when the chain does not start at `context`. */
export function contextPath(expr: Expr): string[] | undefined {
  if (expr.Var === "context") return [];
  const access = expr["."] as { left: Expr; attr: string } | undefined;
  if (access === undefined) return undefined;
  const path = contextPath(access.left);
  return path === undefined ? undefined : [...path, access.attr];
}

const unary = new Set(["!", "neg", "isEmpty"]);
const binary = new Set(["==", "!=", "in", "<", "<=", ">", ">=", "&&", "||", "+", "-", "*", "contains", "containsAll", "containsAny", "getTag", "hasTag"]);

/**
 * Walks Cedar's JSON expression grammar. A shape it does not know reads the whole context, so a
 * newer Cedar construct can only make toolgate send more, never less.
 */
function readExpr(expr: Expr, root: ContextReads): void {
  for (const part of operandsOf(expr, root)) readExpr(part, root);
}

/** The expressions inside `expr` still to read, after noting what `expr` itself reads of the context. */
function operandsOf(expr: Expr, root: ContextReads): Expr[] {
  const keys = Object.keys(expr);
  const key = keys[0];
  const value = key === undefined ? undefined : expr[key];
  const operands = value as Record<string, Expr>;
  if (key === undefined || keys.length !== 1) return readAll(root);
  if (key === "Value" || key === "Slot") return [];
  if (key === "Var") return value === "context" ? readAll(root) : [];
  if (key === ".") return readAccess(expr, operands, root);
  if (key === "has") return readHas(operands, root);
  if (key === "like") return [operands.left!];
  if (key === "is") return operands.in === undefined ? [operands.left!] : [operands.left!, operands.in];
  if (key === "if-then-else") return [operands.if!, operands.then!, operands.else!];
  if (key === "Record") return Object.values(operands);
  if (unary.has(key)) return [operands.arg!];
  if (binary.has(key)) return [operands.left!, operands.right!];
  // `Set`, and an extension function call: `{ "ip": [args] }`.
  if (Array.isArray(value)) return value as Expr[];
  return readAll(root);
}

function readAll(root: ContextReads): [] {
  root.whole = true;
  return [];
}

function readAccess(expr: Expr, operands: Record<string, Expr>, root: ContextReads): Expr[] {
  const path = contextPath(expr);
  if (path === undefined) return [operands.left!];
  at(root, path).whole = true;
  return [];
}

function readHas(operands: Record<string, unknown>, root: ContextReads): Expr[] {
  const left = operands.left as Expr;
  const attrs = operands.attr;
  const path = contextPath(left);
  if (path === undefined) return [left];
  // `e has a.b` is `e has a && e.a has b`: `a` is looked into, `b` only tested.
  at(root, [...path, ...(Array.isArray(attrs) ? (attrs as string[]) : [attrs as string])]);
  return [];
}
