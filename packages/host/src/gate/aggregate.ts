import type { PolicySource, PreToolCallDecision, ToolArgs, Verdict } from "@toolgate/plugin-sdk";
import { copyArgs, setOwn } from "../call/copy-args.js";

/** What the plugins have said about one call so far, folded in plugin order. */
export interface Aggregate {
  /** Always deeply frozen: later hooks and the verdict's holder read them, nobody changes them. */
  args: ToolArgs;
  /** A rough size of every argument copy this call holds, for the decision memo's byte budget. */
  bytes: number;
  block?: { message: string; plugin: string; source: PolicySource };
  ask?: { message: string; plugin: string; source: PolicySource };
  allow?: { reason: string | undefined; plugin: string; source: PolicySource };
  /** The argument keys a `contained` modify set and no later modify changed. */
  contained?: ReadonlySet<string> | undefined;
}

/** `frozenArgs` come from `freezeArgs` or `copyArgs(…, true)`, which measured them as `bytes`. */
export function createAggregate(frozenArgs: ToolArgs, bytes = 0): Aggregate {
  return { args: frozenArgs, bytes };
}

/**
 * Folds one plugin's valid decision in. The first block and the first ask keep their message; `modify`
 * shallow-merges, so a later plugin wins on the same key.
 */
export function addDecision(aggregate: Aggregate, decision: PreToolCallDecision, plugin: string, source: PolicySource): void {
  switch (decision.action) {
    case "block":
      aggregate.block ??= { message: decision.message, plugin, source };
      return;
    case "ask":
      aggregate.ask ??= { message: decision.message, plugin, source };
      return;
    case "allow":
      aggregate.allow ??= { reason: decision.reason, plugin, source };
      return;
    case "modify": {
      // The patch is the plugin's own object: it is read once, into a frozen copy, before it is merged.
      const patch = copyArgs(decision.args, true);
      aggregate.args = Object.freeze(mergeArgs(aggregate.args, patch.args));
      aggregate.bytes += patch.bytes;
      aggregate.contained = containedKeys(aggregate.contained, Object.keys(patch.args), decision.contained === true);
      return;
    }
  }
}

/**
 * A contained modify marks the keys it set; any later modify of one of them (the sandbox's rewrite replaced)
 * unmarks the call, so a verdict never claims a sandbox a later plugin took away.
 */
function containedKeys(current: ReadonlySet<string> | undefined, keys: readonly string[], contained: boolean): ReadonlySet<string> | undefined {
  if (contained) return new Set([...(current ?? []), ...keys]);
  return current !== undefined && keys.some((key) => current.has(key)) ? undefined : current;
}

/** Shallow merge where a key set to `undefined` is removed; `__proto__` stays an own key. */
export function mergeArgs(current: ToolArgs, patch: ToolArgs): ToolArgs {
  const merged: ToolArgs = {};
  for (const key of Object.keys(current)) {
    if (!Object.hasOwn(patch, key)) setOwn(merged, key, current[key]);
    else if (patch[key] !== undefined) setOwn(merged, key, patch[key]);
  }
  for (const key of Object.keys(patch)) if (!Object.hasOwn(current, key) && patch[key] !== undefined) setOwn(merged, key, patch[key]);
  return merged;
}

/** The most restrictive opinion wins: block > ask > allow. */
export function toVerdict(aggregate: Aggregate): Verdict {
  const verdict = verdictOf(aggregate);
  if (aggregate.contained !== undefined && verdict.action !== "block") verdict.contained = true;
  return verdict;
}

function verdictOf(aggregate: Aggregate): Verdict {
  const { args, block, ask, allow } = aggregate;
  if (block) return { action: "block", message: block.message, plugin: block.plugin, source: block.source, args };
  if (ask) return { action: "ask", message: ask.message, plugin: ask.plugin, source: ask.source, args };
  if (allow)
    return allow.reason === undefined
      ? { action: "allow", plugin: allow.plugin, source: allow.source, args }
      : { action: "allow", message: allow.reason, plugin: allow.plugin, source: allow.source, args };
  return { action: "allow", args };
}
