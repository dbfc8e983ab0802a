import type { PolicySource, PreToolCallDecision, ToolArgs } from "@toolgate/plugin-sdk";
import { createRequire } from "node:module";
import type picomatchModule from "picomatch";

// Loaded when the first rule is compiled: a host without permission rules never pays for it.
let picomatchLoaded: typeof picomatchModule | undefined;
function picomatch(pattern: string, options: picomatchModule.PicomatchOptions): picomatchModule.Matcher {
  picomatchLoaded ??= createRequire(import.meta.url)("picomatch") as typeof picomatchModule;
  return picomatchLoaded(pattern, options);
}

/** The `permissions` key of a config: rule strings `toolGlob` or `toolGlob:arg=valueGlob[:arg=valueGlob…]`. */
export interface PermissionsConfig {
  deny?: readonly string[];
  ask?: readonly string[];
  allow?: readonly string[];
}

/** The participant name rule decisions carry as `Verdict.plugin`; `Verdict.source` names the rule. */
export const rulesParticipant = "permissions";

type RuleEffect = "deny" | "ask" | "allow";

interface CompiledRule {
  readonly effect: RuleEffect;
  readonly source: PolicySource;
  readonly tool: (name: string) => boolean;
  readonly args: readonly { readonly key: string; readonly value: (text: string) => boolean }[];
}

export interface RuleMatch {
  readonly decision: PreToolCallDecision;
  readonly source: PolicySource;
}

// `*` matches across `/` too (bash mode): `*sudo*` must catch `cd /tmp && sudo …`.
const globOptions = { nocase: true, bash: true, dot: true } as const;
// A `:` starts a new condition only when an `arg=` follows, so a value glob may hold `:` (`url=http://*`).
const conditionSplit = /:(?=[A-Za-z_$][\w$.-]*=)/;
const argCondition = /^([A-Za-z_$][\w$.-]*)=(.*)$/s;

/**
 * Deny, ask and allow rules, matched case-insensitively on the tool name and on argument values
 * (strings as they are, other values as JSON). Deny > allow > ask: the first deny rule that matches
 * decides, else the first allow rule, else the first ask rule. So an allow rule carves an exception out
 * of a broader ask rule (`ask: ["bash"]`, `allow: ["bash:command=git status*"]`) but never out of a deny.
 */
export class PermissionRules {
  readonly #rules: readonly CompiledRule[];

  constructor(config: PermissionsConfig) {
    const effects: RuleEffect[] = ["deny", "allow", "ask"];
    this.#rules = effects.flatMap((effect) => (config[effect] ?? []).map((rule) => compileRule(effect, rule)));
  }

  get size(): number {
    return this.#rules.length;
  }

  /** Every rule, in check order, for reports (`toolgate list`). */
  get sources(): readonly PolicySource[] {
    return this.#rules.map((rule) => rule.source);
  }

  check(toolName: string, args: ToolArgs): RuleMatch | undefined {
    for (const rule of this.#rules) if (matches(rule, toolName, args)) return { decision: decisionOf(rule), source: rule.source };
    return undefined;
  }
}

/** Why a rule string is malformed, or undefined when it is well formed (for the config schema). */
export function ruleSyntaxError(rule: string): string | undefined {
  const [tool, ...conditions] = rule.split(conditionSplit);
  if (!tool) return "the tool glob before the first `:` is empty";
  if (tool.includes(":")) return "a `:` must be followed by arg=valueGlob";
  for (const condition of conditions) if (!argCondition.test(condition)) return `"${condition}" is not arg=valueGlob`;
  return undefined;
}

function compileRule(effect: RuleEffect, rule: string): CompiledRule {
  const [tool = "", ...conditions] = rule.split(conditionSplit);
  const args = conditions.map((condition) => {
    const [, key = "", value = ""] = argCondition.exec(condition) ?? [];
    return { key, value: picomatch(value, globOptions) };
  });
  return { effect, source: Object.freeze({ kind: "rule", name: rule }), tool: picomatch(tool, globOptions), args };
}

function matches(rule: CompiledRule, toolName: string, args: ToolArgs): boolean {
  if (!rule.tool(toolName)) return false;
  for (const condition of rule.args) {
    const text = argText(args, condition.key);
    if (text === undefined || !condition.value(text)) return false;
  }
  return true;
}

function argText(args: ToolArgs, key: string): string | undefined {
  if (!Object.hasOwn(args, key)) return undefined;
  const value = args[key];
  if (value === undefined) return undefined;
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function decisionOf(rule: CompiledRule): PreToolCallDecision {
  const text = rule.source.name;
  if (rule.effect === "deny") return { action: "block", message: `this call is denied by the project's permissions (deny rule "${text}")` };
  if (rule.effect === "ask") return { action: "ask", message: `this call needs approval (ask rule "${text}")` };
  return { action: "allow", reason: `allowed by permission rule "${text}"` };
}
