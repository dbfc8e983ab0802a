import { describeThrown } from "../errors.js";

export type FieldRead = { ok: true; value: unknown } | { ok: false; reason: string };

/**
 * Reads `object[key]` once, as the host's own copy: a getter runs once and a throwing getter (or Proxy
 * trap) becomes a reason naming the field instead of an exception.
 */
export function readField(object: object, key: string, path: string): FieldRead {
  try {
    return { ok: true, value: Reflect.get(object, key) };
  } catch (error) {
    return { ok: false, reason: `reading ${path} threw: ${describeThrown(error)}` };
  }
}
