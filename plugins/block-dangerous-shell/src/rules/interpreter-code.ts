import { mayCarryCode, sharedInterpreterEffects, type Invocation, type InterpreterEffects } from "@toolgate/shell";
import type { Facts } from "./rule.js";

/** Whether `interpreterCode` can find code in a command of this name: the reader's own list, so the two cannot drift apart. */
export const runsCode: (name: string) => boolean = mayCarryCode;

/**
 * What an interpreter one-liner in the command does (`python3 -c`, `node -e`, `perl -e`, `ruby -e`, …):
 * the files it writes and whether it is a fork bomb. Several rules ask, and so does the host's policy
 * protection: read once per command of the shared reading (`sharedInterpreterEffects`).
 */
export function interpreterCode(invocation: Invocation, facts: Facts): InterpreterEffects | undefined {
  if (!runsCode(invocation.name)) return undefined;
  // A reading that is not shared (a rule asked directly, in tests) is no key to keep answers by: kept per decision.
  if (Object.isFrozen(invocation)) return sharedInterpreterEffects(invocation);
  let cache = facts.shared.get("interpreter-code") as Map<Invocation, InterpreterEffects | undefined> | undefined;
  if (cache === undefined) {
    cache = new Map();
    facts.shared.set("interpreter-code", cache);
  }
  if (cache.has(invocation)) return cache.get(invocation);
  const code = sharedInterpreterEffects(invocation);
  cache.set(invocation, code);
  return code;
}
