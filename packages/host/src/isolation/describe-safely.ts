import { describeThrown } from "../errors.js";

/** `describeThrown`, for values a plugin controls: describing one must not throw across the boundary. */
export function describeSafely(thrown: unknown): string {
  try {
    return describeThrown(thrown);
  } catch {
    return "a value that cannot be described";
  }
}
