/** A value as JSON carries it: its text and the value parsed back, or why JSON cannot hold it. */
export type JsonCopy = { ok: true; text: string; value: unknown } | { ok: false; error: unknown };

/**
 * Never throws. A value JSON has no text for (`undefined`, a function) is `{ ok: true, text: "" , value:
 * undefined }`; a cycle, a BigInt or a throwing `toJSON` is `{ ok: false, error }`.
 */
export function jsonCopy(value: unknown): JsonCopy {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? { ok: true, text: "", value: undefined } : { ok: true, text, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, error };
  }
}
