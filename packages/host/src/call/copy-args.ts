import type { ToolArgs } from "@toolgate/plugin-sdk";

/** Deeper than any real tool's arguments, shallow enough that copying and comparing never exhausts the stack. */
const maxArgsDepth = 256;
/** Keys and array items in one call's arguments, so a huge (or sparse) array cannot stall the gate. */
const maxArgsEntries = 1_000_000;

/** Arguments that cannot be copied: cyclic, too deep or too large. `reason` completes "args …". */
export class ArgsShapeError extends Error {
  constructor(readonly reason: string) {
    super(`args ${reason}`);
    this.name = "ArgsShapeError";
  }
}

export interface ArgsCopy {
  args: ToolArgs;
  /** A rough size in bytes (string lengths plus a little per entry), for memory budgets. */
  bytes: number;
}

const inProgress = Symbol("in progress");

/**
 * A deep copy of plain objects and arrays, each property read once, optionally frozen all the way down.
 * Keys are copied as own data properties, `__proto__` included, so what hooks see is what the tool gets.
 * Other objects (a Date, a class instance) are kept by reference. Throws `ArgsShapeError` for cyclic,
 * too deep or too large arguments; getters and proxies that throw propagate their error.
 */
export function copyArgs(args: Record<string, unknown>, freeze: boolean): ArgsCopy {
  const keys = Object.keys(args);
  if (keys.length > maxArgsEntries) throw new ArgsShapeError(`hold more than ${maxArgsEntries} keys and items`);
  const copy: Record<string, unknown> = {};
  // Most arguments are one level of strings, numbers and booleans: the bookkeeping that nesting needs
  // (depth, cycles, counts) starts at the first nested object.
  let copier: Copier | undefined;
  let bytes = keys.length * 8;
  for (const key of keys) {
    let value = args[key];
    if (typeof value === "object" && value !== null) {
      copier ??= new Copier(freeze, keys.length);
      value = copier.copy(value, 1);
    } else if (typeof value === "string") bytes += value.length;
    bytes += key.length;
    // `setOwn`, inlined by hand: the profile showed it called, not inlined, once per key of every call.
    if (key === "__proto__") defineOwn(copy, key, value);
    else copy[key] = value;
  }
  if (freeze) Object.freeze(copy);
  return { args: copy, bytes: bytes + (copier?.bytes ?? 0) };
}

/** Copies the nested values of one call's arguments, counting depth, entries and bytes, and spotting cycles. */
class Copier {
  bytes = 0;
  #entries = 0;
  readonly #copies = new Map<object, unknown>();

  constructor(
    readonly freeze: boolean,
    topLevelKeys: number,
  ) {
    this.#entries = topLevelKeys;
  }

  copy(value: unknown, depth: number): unknown {
    if (typeof value === "string") {
      this.bytes += value.length;
      return value;
    }
    if (typeof value !== "object" || value === null) return value;
    const isArray = Array.isArray(value);
    if (!isArray && !isPlainRecord(value)) return value;
    if (depth >= maxArgsDepth) throw new ArgsShapeError(`are nested deeper than ${maxArgsDepth} levels`);
    const earlier = this.#copies.get(value);
    if (earlier === inProgress) throw new ArgsShapeError("are cyclic (an object contains itself)");
    // A shared object is copied once: a chain of objects referring twice to the next stays linear.
    if (earlier !== undefined) return earlier;
    this.#copies.set(value, inProgress);
    const copy = isArray ? this.#copyArray(value as unknown[], depth) : this.#copyRecord(value as Record<string, unknown>, depth);
    if (this.freeze) Object.freeze(copy);
    this.#copies.set(value, copy);
    return copy;
  }

  #count(entries: number): void {
    this.#entries += entries;
    this.bytes += entries * 8;
    if (this.#entries > maxArgsEntries) throw new ArgsShapeError(`hold more than ${maxArgsEntries} keys and items`);
  }

  #copyArray(source: unknown[], depth: number): unknown[] {
    const length = source.length;
    this.#count(length);
    const copy = new Array<unknown>(length);
    for (let index = 0; index < length; index++) copy[index] = this.copy(source[index], depth + 1);
    return copy;
  }

  #copyRecord(source: Record<string, unknown>, depth: number): Record<string, unknown> {
    const keys = Object.keys(source);
    this.#count(keys.length);
    const copy: Record<string, unknown> = {};
    for (const key of keys) {
      this.bytes += key.length;
      setOwn(copy, key, this.copy(source[key], depth + 1));
    }
    return copy;
  }
}

function isPlainRecord(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * Assignment would call the `__proto__` setter and turn data into a prototype (a policy would see `{}`
 * while the tool read `args.command` through the prototype): that one key is defined, never assigned.
 */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") defineOwn(target, key, value);
  else target[key] = value;
}

function defineOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}
