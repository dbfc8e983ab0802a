import { interpreterEffects, stdinTexts, type Invocation, type InterpreterEffects } from "@toolgate/shell";
import type { Facts } from "./rule.js";

const interpreterNames = new Set(["node", "nodejs", "bun", "deno", "ruby", "perl", "php", "awk", "gawk", "mawk", "nawk"]);
const pythonNames = /^(python[\d.]*|pypy\d*)$/;

// Asked about every command by several rules: a set lookup first, the pattern only for python and pypy.
function runsCode(name: string): boolean {
  return interpreterNames.has(name) || (name.startsWith("py") && pythonNames.test(name));
}

/**
 * What an interpreter one-liner in the command does (`python3 -c`, `node -e`, `perl -e`, `ruby -e`, …):
 * the files it writes and whether it is a fork bomb. For an invocation of `facts.analysis.invocations`:
 * all of them are read once per decision, as several rules ask about every command.
 */
export function interpreterCode(invocation: Invocation, facts: Facts): InterpreterEffects | undefined {
  let codes = facts.shared.get("interpreter-code") as Map<Invocation, InterpreterEffects> | undefined;
  if (codes === undefined) {
    codes = interpreterCodes(facts.analysis.invocations);
    facts.shared.set("interpreter-code", codes);
  }
  return codes.get(invocation);
}

// Only the interpreters are keys: asking about any other command is a miss on an object never hashed, the cheapest lookup.
function interpreterCodes(invocations: readonly Invocation[]): Map<Invocation, InterpreterEffects> {
  const codes = new Map<Invocation, InterpreterEffects>();
  for (const invocation of invocations) {
    if (!runsCode(invocation.name)) continue;
    const code = interpreterEffects(invocation, () => stdinTexts(invocation));
    if (code !== undefined) codes.set(invocation, code);
  }
  return codes;
}
