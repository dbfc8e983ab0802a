import type { PathContext } from "./paths.js";
import { collectDeletes } from "./rules/deletes.js";
import { indexByName, show, type Delete, type Rule } from "./rules/rule.js";
import { analysisEnvironment, sharedAnalysis, type Analysis } from "@toolgate/shell";

const catastrophicKinds = new Set<string>(["root", "home", "system", "project"]);

/** Everything a decision needs besides the command: the active rules and where things are. */
export interface Guard {
  rules: readonly Rule[];
  context: PathContext;
  /** Temp folder that `$TMPDIR` stands for. */
  tmp: string;
  onUnparseable: "block" | "allow";
  /** A command whose name is only known at run time (`$CMD -rf /`): refused unless `"allow"`. */
  onUnresolvedCommand: "block" | "allow";
}

export interface Violation {
  /** The rule id, `"unparseable"` or `"unresolved-command"`. */
  rule: string;
  /** What the model reads: what was dangerous and what to do instead. */
  message: string;
}

export interface CheckResult {
  analysis: Analysis;
  deletes: readonly Delete[];
  violation?: Violation;
}

/**
 * Decides on one command line. `cwd` is where the shell starts (absolute, or relative to the project
 * root); rules are tried in order and the first that matches supplies the message. A line that cannot
 * be read with confidence is refused when `onUnparseable` is `"block"`, after the rules had their say; one that
 * runs a command whose name is only known at run time, when `onUnresolvedCommand` is `"block"`.
 */
export function checkCommand(command: string, guard: Guard, cwd?: string): CheckResult {
  const { context } = guard;
  // The same reading as the permission rules' and the policy protection's for this call (one analysis per decision).
  const analysis = sharedAnalysis(command, analysisEnvironment({ projectRoot: context.projectRoot, home: context.home, tmp: guard.tmp, cwd }));
  const deletes = collectDeletes(analysis.invocations, context);
  // A function defined and never called runs nothing; a catastrophic delete in it is refused all the same.
  if (analysis.uncalled.length > 0) deletes.push(...collectDeletes(analysis.uncalled, context).filter((found) => catastrophicKinds.has(found.target.kind)));
  const facts = { analysis, deletes, context, ...indexByName(analysis.invocations), shared: new Map<string, unknown>() };
  for (const rule of guard.rules) {
    const message = rule.check(facts);
    if (message !== undefined) return { analysis, deletes, violation: { rule: rule.id, message } };
  }
  if (analysis.problems.length > 0 && guard.onUnparseable === "block") {
    const message = `refusing a command that cannot be parsed with confidence (${analysis.problems[0]}), so what it would run cannot be checked. Fix the quoting, or split it into simpler commands.`;
    return { analysis, deletes, violation: { rule: "unparseable", message } };
  }
  const unresolved = analysis.unresolved[0];
  if (unresolved !== undefined && guard.onUnresolvedCommand === "block") {
    const message = `refusing ${show(unresolved)}: the name of the command it runs is only known when it runs, so what it does cannot be checked. Write the command name out literally.`;
    return { analysis, deletes, violation: { rule: "unresolved-command", message } };
  }
  return { analysis, deletes };
}
