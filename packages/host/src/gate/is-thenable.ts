/** True for anything with a callable `then`: promises from another realm (jiti) included. */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    value !== null &&
    (typeof value === "object" || typeof value === "function") &&
    typeof (value as { then?: unknown }).then === "function"
  );
}

/**
 * A promise of `value` that reads a thenable's `then` once and calls it once. `await value` reads it
 * again, and a hostile thenable can hand a different `then` (or a throw) to the second read.
 */
export function adopt(value: unknown): Promise<unknown> {
  return new Promise((resolve, reject) => {
    // Inside the executor a throw (a `then` getter, a `then` call) becomes the rejection.
    const then = value !== null && (typeof value === "object" || typeof value === "function") ? (value as { then?: unknown }).then : undefined;
    if (typeof then === "function") then.call(value, resolve, reject);
    else resolve(value);
  });
}
