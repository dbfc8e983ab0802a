import { CliError, exitCodes } from "../cli/cli-error.js";
import type { ExpectedVerdict } from "../policy-test/fixture-schema.js";
import type { Decision } from "./decide-calls.js";
import { sourceKey } from "./describe-decision.js";

const verdicts: readonly string[] = ["allow", "modify", "ask", "block"] satisfies ExpectedVerdict[];

/** One entry of `--allow-changes`: a verdict change (`allow->block`, `*->block`) or a decider (`budget`, `rule:Bash(rm:*)`). */
export type AllowedChange = { from: string; to: string } | { decider: string };

/**
 * Parses `--allow-changes` values, each a comma-separated list: `FROM->TO` with FROM and TO one of allow,
 * modify, ask, block or `*` (`block->block` is a block now given by another decider), or the name of a
 * plugin, rule or hook (`name` or `kind:name`) whose calls may change either way.
 */
export function parseAllowedChanges(values: readonly string[]): AllowedChange[] {
  return values.flatMap((value) =>
    value
      .split(",")
      .map((entry) => entry.trim())
      .filter((entry) => entry !== "")
      .map(parseEntry),
  );
}

function parseEntry(entry: string): AllowedChange {
  if (!entry.includes("->")) return { decider: entry };
  const [from, to, ...rest] = entry.split("->").map((side) => side.trim());
  const bad = [from, to].find((side) => side === undefined || (side !== "*" && !verdicts.includes(side)));
  if (rest.length > 0 || bad !== undefined)
    throw new CliError(
      `--allow-changes "${entry}": a verdict change is FROM->TO with FROM and TO each one of ${verdicts.join(", ")} or * (e.g. allow->block)`,
      exitCodes.usage,
    );
  return { from: from!, to: to! };
}

/** Whether one changed call is one the allowances name. */
export function isAllowedChange(base: Decision, head: Decision, allowed: readonly AllowedChange[]): boolean {
  return allowed.some((entry) => {
    if ("decider" in entry)
      return [base.source, head.source].some((source) => source !== undefined && (source.name === entry.decider || sourceKey(source) === entry.decider));
    return (entry.from === "*" || entry.from === base.verdict) && (entry.to === "*" || entry.to === head.verdict);
  });
}
