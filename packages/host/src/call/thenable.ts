type Then = (this: unknown, onValue: (value: unknown) => void, onError: (error: unknown) => void) => unknown;

/**
 * The `then` of a thenable, read once, or undefined. Callers call what this returns rather than
 * `await value`, which reads `then` again: a hostile thenable can hand a different one (or a throw) to
 * the second read. Promises from another realm (jiti) count: the test is for `then`, not `instanceof`.
 */
export function thenOf(value: unknown): Then | undefined {
  if (value === null || (typeof value !== "object" && typeof value !== "function")) return undefined;
  const then = (value as { then?: unknown }).then;
  return typeof then === "function" ? (then as Then) : undefined;
}

/** A promise of `value` that reads a thenable's `then` once and calls it once. */
export function adopt(value: unknown): Promise<unknown> {
  return new Promise((resolve, reject) => {
    // Inside the executor a throw (a `then` getter, a `then` call) becomes the rejection.
    const then = thenOf(value);
    if (then) then.call(value, resolve, reject);
    else resolve(value);
  });
}

const nativeThen = Promise.prototype.then;

/**
 * True when `then` (read once from `value`) is this realm's own `Promise.prototype.then` and `value` an
 * ordinary promise of it: calling `then` on it runs no code of the value's maker, and the promise it
 * returns is a plain `Promise` (no own `constructor`, so no species of the maker's choosing). Such a
 * value needs no `new Promise` around it to be adopted safely.
 */
export function isNativePromise(value: object, then: Then): value is Promise<unknown> {
  return then === nativeThen && Object.getPrototypeOf(value) === Promise.prototype && !Object.hasOwn(value, "constructor");
}
