import type { ToolArgs, Verdict } from "@toolgate/plugin-sdk";
import { rulesParticipant, type PermissionRules } from "../policies/permission-rules.js";
import { protectionParticipant, protectionSource } from "../protection/protection-source.js";
import { count } from "./absorb.js";
import { addDecision, toVerdict } from "./aggregate.js";
import type { PolicyRun } from "./policy-run.js";
import { noteShadow } from "./shadow.js";
import { nowMs } from "../invocation/clock.js";

// The participants that are no plugin: the permission rules, first and again on the final arguments,
// and the protection of toolgate's own policy, last.

const closedMessage = "host closed (host.close()) before this call could run";

/** The verdict of every call the host has not run when it closes. */
export function closedVerdict(args: ToolArgs): Verdict {
  return { action: "block", message: closedMessage, args };
}

/** Permission rules, then the shadow rules, run before every plugin and again on the final arguments (`conclude`). */
export function checkRules(run: PolicyRun, args: ToolArgs): void {
  const { rules, shadowRules } = run.runtime;
  if (rules !== undefined) checkRuleSet(run, rules, args, false);
  if (shadowRules !== undefined) checkRuleSet(run, shadowRules, args, true);
}

function checkRuleSet(run: PolicyRun, rules: PermissionRules, args: ToolArgs, shadow: boolean): void {
  const began = run.listener ? nowMs() : 0;
  const matched = rules.check(run.call.name, args, run.call.kind);
  if (matched === undefined) return;
  count(run, matched.decision, rulesParticipant, matched.source, shadow, run.listener ? nowMs() - began : 0);
}

/** The built-in protection of toolgate's own policy, on the final arguments (after every `modify`). */
function checkProtection(run: PolicyRun, args: ToolArgs): void {
  const { protection } = run.runtime;
  if (protection === undefined) return;
  const began = run.listener ? nowMs() : 0;
  const decision = protection.check({ name: run.call.name, args, kind: run.call.kind });
  if (decision === undefined) return;
  addDecision(run.aggregate, decision, protectionParticipant, protectionSource);
  run.listener?.decision(protectionParticipant, protectionSource, decision, run.aggregate.args, nowMs() - began, false);
}

/** The run's verdict once every plugin has spoken: the last checks, on the arguments that run. */
export function conclude(run: PolicyRun): Verdict {
  const { runtime, aggregate } = run;
  // Rules decide on what actually runs: a `modify` cannot smuggle in an argument a rule denies.
  if (aggregate.args !== run.call.args) checkRules(run, aggregate.args);
  // Last: a block here stands whatever the others said, and a block of theirs keeps its message.
  checkProtection(run, aggregate.args);
  const verdict = runtime.closed ? closedVerdict(aggregate.args) : toVerdict(aggregate);
  if (!runtime.closed) {
    noteShadow(verdict, run.shadow);
    run.onConcluded?.(run, verdict);
  }
  return verdict;
}
