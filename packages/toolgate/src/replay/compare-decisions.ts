import type { ToolCall } from "@toolgate/plugin-sdk";
import type { ExpectedVerdict } from "../policy-test/fixture-schema.js";
import { isAllowedChange, type AllowedChange } from "./allow-changes.js";
import type { Decision, LocatedCall } from "./decide-calls.js";
import { sourceKey } from "./describe-decision.js";

/** A call whose verdict or decider differs between the two policies: what `diff --json` lists. */
export interface ChangedCall {
  where: string;
  call: ToolCall;
  base: Decision;
  head: Decision;
  /** Named by `--allow-changes`. */
  allowed: boolean;
}

/** The changed calls that went from one verdict to another (`allow → block`), in file order. */
export interface ChangeGroup {
  from: ExpectedVerdict;
  to: ExpectedVerdict;
  count: number;
  calls: ChangedCall[];
}

const order: readonly ExpectedVerdict[] = ["allow", "modify", "ask", "block"];

/** Whether two decisions differ in what a diff reports: the verdict, or who gave it. */
export function hasChanged(before: Decision, after: Decision): boolean {
  return before.verdict !== after.verdict || sourceKey(before.source) !== sourceKey(after.source);
}

export function changedCalls(
  calls: readonly LocatedCall[],
  base: readonly Decision[],
  head: readonly Decision[],
  allowed: readonly AllowedChange[],
): ChangedCall[] {
  return calls.flatMap(({ file, line, call }, index) => {
    const before = base[index]!;
    const after = head[index]!;
    if (!hasChanged(before, after)) return [];
    return [{ where: `${file}:${line}`, call, base: before, head: after, allowed: isAllowedChange(before, after, allowed) }];
  });
}

/** Groups by verdict change, in a fixed order (allow, modify, ask, block; from, then to), so the report is stable. */
export function groupChanges(changes: readonly ChangedCall[]): ChangeGroup[] {
  const groups: ChangeGroup[] = [];
  for (const from of order)
    for (const to of order) {
      const calls = changes.filter((change) => change.base.verdict === from && change.head.verdict === to);
      if (calls.length > 0) groups.push({ from, to, count: calls.length, calls });
    }
  return groups;
}
