import type { AllowedChange } from "./allow-changes.js";
import { changedCalls, groupChanges } from "./compare-decisions.js";
import { decideCalls, type Decision, type LocatedCall } from "./decide-calls.js";
import { openPolicySide, sideLogger, type PolicySide } from "./policy-side.js";
import type { DiffReport } from "./print-diff.js";
import type { Sessions } from "./read-sessions.js";
import { rethrowForSide } from "./side-error.js";

export interface DiffRequest {
  /** The policy before: a git ref or a config file. */
  base: string;
  /** The policy after; undefined is the project as it is on disk. */
  head: string | undefined;
  /** The project folder. */
  cwd: string;
  allowed: readonly AllowedChange[];
}

/** Decides every call of `sessions` under both policies and reports the calls whose verdict or decider changed: `toolgate diff` and the ui's diff panel. */
export async function diffPolicies(request: DiffRequest, sessions: Sessions): Promise<DiffReport> {
  return withSides(request, (base, head) => compare(base, head, sessions, request.allowed));
}

/** Opens both policies for `use`, and removes a committed policy's copy whatever happens. */
async function withSides<T>({ base: baseSpec, head: headSpec, cwd }: DiffRequest, use: (base: PolicySide, head: PolicySide) => Promise<T>): Promise<T> {
  const base = await openPolicySide(baseSpec, cwd, "--base");
  try {
    const head = await openPolicySide(headSpec, cwd, "--head");
    try {
      return await use(base, head);
    } finally {
      head.remove();
    }
  } finally {
    base.remove();
  }
}

async function compare(base: PolicySide, head: PolicySide, sessions: Sessions, allowed: readonly AllowedChange[]): Promise<DiffReport> {
  const before = await decideOn(base, "base", sessions.calls);
  const after = await decideOn(head, "head", sessions.calls);
  const changes = changedCalls(sessions.calls, before, after, allowed);
  return {
    base: base.label,
    head: head.label,
    records: sessions.records,
    compared: sessions.calls.length,
    changed: changes.length,
    notAllowed: changes.filter((change) => !change.allowed).length,
    groups: groupChanges(changes),
    notReplayed: sessions.notReplayed,
  };
}

function decideOn(side: PolicySide, name: string, calls: readonly LocatedCall[]): Promise<Decision[]> {
  return decideCalls({ ...side.location, logger: sideLogger(name, side.reword) }, calls).catch(rethrowForSide(`${name} ${side.label}`, side.reword));
}
