import type { PolicySource, PreToolCallDecision, ToolArgs } from "@toolgate/plugin-sdk";
import { createRequire } from "node:module";
import { homedir, tmpdir } from "node:os";
import { resolve } from "node:path";
import type { AnalysisEnvironment } from "@toolgate/shell";
import type picomatchModule from "picomatch";
import { kindOfTool } from "./tool-kinds.js";
import { argvSubjects, expandHome, isPathKey, normalizedPath, shellKeys, shellSubjects, type Subjects } from "./rule-subjects.js";

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

/** Where relative paths and shell lines are read from. */
export interface PermissionRulesOptions {
  /** Relative path arguments resolve from here, and a shell line starts here. @default process.cwd() */
  cwd?: string;
  /** What `~` stands for, in arguments and in value globs. @default os.homedir() */
  home?: string;
}

/** The participant name rule decisions carry as `Verdict.plugin`; `Verdict.source` names the rule. */
export const rulesParticipant = "permissions";

type RuleEffect = "deny" | "ask" | "allow";

interface CompiledCondition {
  readonly key: string;
  readonly value: (text: string) => boolean;
  /** Matched against the normalised path: a path key (`file_path`), or a glob that starts with `/` or `~`. */
  readonly path: boolean;
  readonly absoluteGlob: boolean;
  /** A shell tool's `command`, `cmd` or `script`: matched command by command. */
  readonly shell: boolean;
}

interface CompiledRule {
  readonly effect: RuleEffect;
  readonly source: PolicySource;
  readonly tool: (name: string) => boolean;
  readonly args: readonly CompiledCondition[];
}

/** One check: the call's kind, and each shell line read at most once however many rules look at it. */
interface CheckContext {
  readonly args: ToolArgs;
  readonly shell: boolean;
  lines?: Map<string, Subjects>;
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
 * (strings as they are, other values as JSON; arrays element by element; paths normalised; a shell
 * tool's command line command by command). Deny > allow > ask: the first deny rule that matches decides,
 * else the first allow rule (or allow rules that together cover every command of a shell line), else the
 * first ask rule. So an allow rule carves an exception out of a broader ask rule (`ask: ["bash"]`,
 * `allow: ["bash:command=git status*"]`) but never out of a deny.
 */
export class PermissionRules {
  readonly #rules: readonly CompiledRule[];
  readonly #cwd: string;
  readonly #home: string;
  #environment: AnalysisEnvironment | undefined;

  constructor(config: PermissionsConfig, options: PermissionRulesOptions = {}) {
    this.#cwd = resolve(options.cwd ?? process.cwd());
    this.#home = options.home ?? homedir();
    const effects: RuleEffect[] = ["deny", "allow", "ask"];
    this.#rules = effects.flatMap((effect) => (config[effect] ?? []).map((rule) => compileRule(effect, rule, this.#home)));
  }

  get size(): number {
    return this.#rules.length;
  }

  /** Every rule, in check order, for reports (`toolgate list`). */
  get sources(): readonly PolicySource[] {
    return this.#rules.map((rule) => rule.source);
  }

  /**
   * The first rule that matches, deny before allow before ask. `kind` is the call's (`ToolCall.kind`): a
   * call of kind `shell`, or with no kind and a shell's name (`Bash`, `run_shell_command`), has its
   * `command`, `cmd` and `script` matched command by command.
   */
  check(toolName: string, args: ToolArgs, kind?: string): RuleMatch | undefined {
    const context: CheckContext = { args, shell: kind === "shell" || (kind === undefined && kindOfTool(toolName) === "shell") };
    let triedTogether = false;
    for (const rule of this.#rules) {
      if (rule.effect === "ask" && !triedTogether) {
        triedTogether = true;
        const together = context.shell ? this.#allowedTogether(toolName, context) : undefined;
        if (together) return together;
      }
      if (this.#matches(rule, toolName, context)) return { decision: decisionOf(rule), source: rule.source };
    }
    return triedTogether || !context.shell ? undefined : this.#allowedTogether(toolName, context);
  }

  /**
   * A shell line no single allow rule covers, whose every command some allow rule covers
   * (`git status && npm test` with `git status*` and `npm test*`): allowed, named after the first of them.
   * Only rules whose shell conditions all read one argument, and whose other conditions hold, take part.
   */
  #allowedTogether(toolName: string, context: CheckContext): RuleMatch | undefined {
    const byKey = new Map<string, { rule: CompiledRule; conditions: CompiledCondition[] }[]>();
    for (const rule of this.#rules) {
      const conditions = rule.args.filter((condition) => condition.shell);
      const key = conditions[0]?.key;
      if (rule.effect !== "allow" || key === undefined || !rule.tool(toolName)) continue;
      if (conditions.some((condition) => condition.key !== key)) continue;
      if (!rule.args.every((condition) => condition.shell || this.#holds(condition, "allow", context))) continue;
      byKey.set(key, [...(byKey.get(key) ?? []), { rule, conditions }]);
    }
    for (const [key, rules] of byKey) {
      const value = context.args[key];
      if (rules.length < 2 || !(typeof value === "string" || isStrings(value))) continue;
      const commands = this.#subjects(rules[0]!.conditions[0]!, value, context).all;
      if (commands === undefined) continue;
      const used = new Set<CompiledRule>();
      const covered = commands.every((command) => {
        const by = rules.find(({ conditions }) => conditions.every((condition) => condition.value(command)));
        if (by) used.add(by.rule);
        return by !== undefined;
      });
      if (!covered) continue;
      const names = [...used].map((rule) => `"${rule.source.name}"`).join(", ");
      return { decision: { action: "allow", reason: `every command is allowed by permission rules ${names}` }, source: [...used][0]!.source };
    }
    return undefined;
  }

  #matches(rule: CompiledRule, toolName: string, context: CheckContext): boolean {
    if (!rule.tool(toolName)) return false;
    for (const condition of rule.args) if (!this.#holds(condition, rule.effect, context)) return false;
    return true;
  }

  /** A deny or ask condition holds when its glob matches any subject; an allow condition when it matches all. */
  #holds(condition: CompiledCondition, effect: RuleEffect, context: CheckContext): boolean {
    const { args } = context;
    if (!Object.hasOwn(args, condition.key)) return false;
    const value = args[condition.key];
    if (value === undefined) return false;
    // Deny and ask also match the whole value, as rules always did: reading it closer only adds matches.
    if (effect !== "allow") return condition.value(argText(value)) || this.#subjects(condition, value, context).any.some(condition.value);
    return this.#subjects(condition, value, context).all?.every(condition.value) === true;
  }

  #subjects(condition: CompiledCondition, value: unknown, context: CheckContext): Subjects {
    if (context.shell && condition.shell) {
      if (typeof value === "string") return this.#parsed(context, value, (environment) => shellSubjects(value, environment));
      if (isStrings(value)) return this.#parsed(context, `argv:${JSON.stringify(value)}`, (environment) => argvSubjects(value, environment));
    }
    const text = (element: unknown) =>
      condition.path && typeof element === "string" ? normalizedPath(element, condition.absoluteGlob, this.#cwd, this.#home) : argText(element);
    if (Array.isArray(value)) {
      const elements = value.map(text);
      const raw = condition.path ? value.map(argText) : [];
      return { any: [...elements, ...raw], all: elements.length > 0 ? elements : [argText(value)] };
    }
    const subject = text(value);
    return { any: [subject], all: [subject] };
  }

  /** A shell line's subjects, read once per check whichever rules look at it. */
  #parsed(context: CheckContext, key: string, read: (environment: AnalysisEnvironment) => Subjects): Subjects {
    context.lines ??= new Map();
    let subjects = context.lines.get(key);
    if (subjects === undefined) {
      this.#environment ??= { cwd: this.#cwd, home: this.#home, tmp: tmpdir() };
      subjects = read(this.#environment);
      context.lines.set(key, subjects);
    }
    return subjects;
  }
}

function isStrings(value: unknown): value is string[] {
  return Array.isArray(value) && value.length > 0 && value.every((element) => typeof element === "string");
}

/** Why a rule string is malformed, or undefined when it is well formed (for the config schema). */
export function ruleSyntaxError(rule: string): string | undefined {
  const [tool, ...conditions] = rule.split(conditionSplit);
  if (!tool) return "the tool glob before the first `:` is empty";
  if (tool.includes(":")) return "a `:` must be followed by arg=valueGlob";
  for (const condition of conditions) if (!argCondition.test(condition)) return `"${condition}" is not arg=valueGlob`;
  return undefined;
}

function compileRule(effect: RuleEffect, rule: string, home: string): CompiledRule {
  const [tool = "", ...conditions] = rule.split(conditionSplit);
  const args = conditions.map((condition): CompiledCondition => {
    const [, key = "", written = ""] = argCondition.exec(condition) ?? [];
    const glob = expandHome(written, home);
    const absoluteGlob = glob.startsWith("/");
    const path = absoluteGlob || written.startsWith("~") || isPathKey(key);
    const matcher = picomatch(glob, globOptions);
    // One argument only: picomatch reads a second one (an index, from `some`) as "return an object".
    const value = (text: string) => matcher(text);
    return { key, value, path, absoluteGlob, shell: shellKeys.has(key) };
  });
  return { effect, source: Object.freeze({ kind: "rule", name: rule }), tool: picomatch(tool, globOptions), args };
}

/** A value as rules have always seen it: a string as it is, anything else as JSON. */
function argText(value: unknown): string {
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
