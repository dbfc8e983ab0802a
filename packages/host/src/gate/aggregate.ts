import type { PreToolCallDecision, ToolArgs, Verdict } from "@toolgate/plugin-sdk";
import { freezeArgs } from "./freeze-call.js";

/** What the plugins have said about one call so far, folded in plugin order. */
export interface Aggregate {
  /** Always deeply frozen: later hooks and the verdict's holder read them, nobody changes them. */
  args: ToolArgs;
  block?: { message: string; plugin: string };
  ask?: { message: string; plugin: string };
  allow?: { reason: string | undefined; plugin: string };
}

/** `frozenArgs` come from `freezeArgs`. */
export function createAggregate(frozenArgs: ToolArgs): Aggregate {
  return { args: frozenArgs };
}

/**
 * Folds one plugin's valid decision in. The first block and the first ask keep their message; `modify`
 * shallow-merges, so a later plugin wins on the same key.
 */
export function addDecision(aggregate: Aggregate, decision: PreToolCallDecision, plugin: string): void {
  switch (decision.action) {
    case "block":
      aggregate.block ??= { message: decision.message, plugin };
      return;
    case "ask":
      aggregate.ask ??= { message: decision.message, plugin };
      return;
    case "allow":
      aggregate.allow ??= { reason: decision.reason, plugin };
      return;
    case "modify":
      aggregate.args = freezeArgs(mergeArgs(aggregate.args, decision.args));
      return;
  }
}

/** Shallow merge where a key set to `undefined` is removed. */
export function mergeArgs(current: ToolArgs, patch: ToolArgs): ToolArgs {
  const merged: ToolArgs = { ...current };
  for (const key of Object.keys(patch)) {
    if (patch[key] === undefined) delete merged[key];
    else merged[key] = patch[key];
  }
  return merged;
}

/** The most restrictive opinion wins: block > ask > allow. */
export function toVerdict(aggregate: Aggregate): Verdict {
  const { args, block, ask, allow } = aggregate;
  if (block) return { action: "block", message: block.message, plugin: block.plugin, args };
  if (ask) return { action: "ask", message: ask.message, plugin: ask.plugin, args };
  if (allow) return allow.reason === undefined ? { action: "allow", plugin: allow.plugin, args } : { action: "allow", message: allow.reason, plugin: allow.plugin, args };
  return { action: "allow", args };
}
