import { interpreterEffects, type InterpreterEffects, mayCarryCode } from "./interpreters.js";
import type { Invocation } from "./invocations.js";
import { readerVersion } from "./reader-version.js";
import { stdinTexts } from "./static-text.js";

// On the process, as the shared readings are (shared-analysis.ts): the guard plugin runs its own copy of this package.
// Keyed by the command object: kept as long as the reading that holds it, and no longer.
const storeKey = Symbol.for(`toolgate.shell.shared-effects@${readerVersion}`);
const known: WeakMap<Invocation, InterpreterEffects | null> = ((globalThis as { [storeKey]?: WeakMap<Invocation, InterpreterEffects | null> })[storeKey] ??=
  new WeakMap());

/**
 * `interpreterEffects(invocation, () => stdinTexts(invocation))`, read once for every consumer of a shared
 * reading's command (the guard's rules and the policy protection both ask). The answer is frozen, like the
 * reading. A command that is not a shared reading's (not frozen, so it may still change) is read afresh.
 */
export function sharedInterpreterEffects(invocation: Invocation): InterpreterEffects | undefined {
  // Most commands of a line are no interpreter: nothing to read, and nothing to keep for them.
  if (!mayCarryCode(invocation.name)) return undefined;
  if (!Object.isFrozen(invocation)) return interpreterEffects(invocation, () => stdinTexts(invocation));
  const found = known.get(invocation);
  if (found !== undefined) return found ?? undefined;
  const effects = interpreterEffects(invocation, () => stdinTexts(invocation));
  if (effects === undefined) {
    known.set(invocation, null);
    return undefined;
  }
  for (const write of effects.writes) Object.freeze(write);
  Object.freeze(effects.writes);
  const frozen = Object.freeze(effects);
  known.set(invocation, frozen);
  return frozen;
}
