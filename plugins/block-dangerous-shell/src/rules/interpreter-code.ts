import { sharedInterpreterEffects, type Invocation, type InterpreterEffects } from "@toolgate/shell";
import type { Facts } from "./rule.js";

const interpreterNames = new Set(["node", "nodejs", "bun", "deno", "tsx", "ts-node", "esno", "esrun", "ruby", "perl", "php", "awk", "gawk", "mawk", "nawk"]);
const pythonNames = /^(python[\d.]*|pypy\d*)$/;

/** Whether `interpreterCode` can find code in a command of this name. Asked about every command by several rules: a set lookup first, the pattern only for python and pypy. */
export function runsCode(name: string): boolean {
  return interpreterNames.has(name) || (name.startsWith("py") && pythonNames.test(name));
}

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
