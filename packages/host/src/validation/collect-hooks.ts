import type { HookName } from "@toolgate/plugin-sdk";
import { hookNames, isHookName, isPlainObject } from "@toolgate/plugin-sdk/host";
import { closest } from "fastest-levenshtein";
import { describeThrown } from "../errors.js";
import { describeType } from "./describe-type.js";
import { readField } from "./read-field.js";

/** One hook implementation as the host holds it: read once, called with the plugin's `hooks` as `this`. */
export interface HookBinding {
  readonly hook: HookName;
  readonly fn: (...args: unknown[]) => unknown;
  readonly thisArg: object;
}

export type HookCollection = { ok: true; hooks: HookBinding[]; warnings: string[] } | { ok: false; reason: string };

/**
 * The hooks a plugin implements, so that every hook that exists runs. Each hook name is looked up on
 * `hooks` and its prototypes up to (not including) `Object.prototype`, enumerable or not: class instances,
 * inherited hooks and `Object.defineProperty` hooks all run. In a plain object every enumerable key is
 * meant as a hook, so an unknown name warns and a value that is not a function fails; a class instance may
 * also hold state and helpers, so only the hook names are looked at there.
 */
export function collectHooks(hooks: unknown): HookCollection {
  if (hooks === undefined) return { ok: true, hooks: [], warnings: [] };
  if (typeof hooks !== "object" || hooks === null || Array.isArray(hooks))
    return { ok: false, reason: `hooks must be an object of hook functions, got ${describeType(hooks)}` };
  try {
    return collectFrom(hooks);
  } catch (error) {
    return { ok: false, reason: `reading hooks threw: ${describeThrown(error)}` };
  }
}

function collectFrom(hooks: object): HookCollection {
  const bindings: HookBinding[] = [];
  for (const hook of hookNames) {
    if (!hasOwnOrInherited(hooks, hook)) continue;
    const read = readField(hooks, hook, `hooks.${hook}`);
    if (!read.ok) return read;
    if (typeof read.value !== "function") return { ok: false, reason: `hooks.${hook} must be a function, got ${describeType(read.value)}` };
    bindings.push({ hook, fn: read.value as HookBinding["fn"], thisArg: hooks });
  }
  if (!isPlainObject(hooks)) return { ok: true, hooks: bindings, warnings: [] };
  const warnings: string[] = [];
  for (const key of Object.keys(hooks)) {
    if (isHookName(key)) continue;
    const read = readField(hooks, key, `hooks.${key}`);
    if (!read.ok) return read;
    if (typeof read.value !== "function") return { ok: false, reason: `hooks.${key} must be a function, got ${describeType(read.value)}` };
    warnings.push(`unknown hook "${key}"; did you mean "${closest(key, hookNames)}"? It will never be called`);
  }
  return { ok: true, hooks: bindings, warnings };
}

// Object.prototype is left out: a name planted there by prototype pollution is not a hook of this plugin.
function hasOwnOrInherited(object: object, key: string): boolean {
  for (let current: object | null = object; current !== null && current !== Object.prototype; current = Object.getPrototypeOf(current))
    if (Object.getOwnPropertyDescriptor(current, key) !== undefined) return true;
  return false;
}
