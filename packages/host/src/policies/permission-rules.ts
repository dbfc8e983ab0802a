import { commandFields, shellCommands, isShellCall, type PolicySource, type PreToolCallDecision, type ToolArgs } from "@toolgate/plugin-sdk";
import { createRequire } from "node:module";
import { homedir, tmpdir } from "node:os";
import { resolve } from "node:path";
import { analysisEnvironment, type AnalysisEnvironment } from "@toolgate/shell";
import type picomatchModule from "picomatch";
import { isClaudeCodeRule, readClaudeCodeRule, type ClaudeRule } from "./claude-code-rules.js";
import { argvSubjects, expandHome, isPathKey, normalizedPath, shellSubjects, type Subjects } from "./rule-subjects.js";

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
  /**
   * Shadow mode: `true` puts every rule of this `permissions` in shadow, `{ deny, ask, allow }` adds rules
   * that are in shadow beside the enforced ones. A shadow rule is checked and recorded (`shadow: true`)
   * but never takes part in the verdict.
   */
  shadow?: boolean | Omit<PermissionsConfig, "shadow">;
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
  /** A shell tool's `command`, `cmd`, `script` or `argv`: matched command by command, against every field the call runs. */
  readonly shell: boolean;
}

interface CompiledRule {
  readonly effect: RuleEffect;
  readonly source: PolicySource;
  /** Whether the rule names the call's tool; `shell` is whether the call is a shell call (Claude Code's `Bash` names every one). */
  readonly tool: (name: string, shell: boolean) => boolean;
  readonly args: readonly CompiledCondition[];
}

/** One check: whether the call is a shell's, and what it runs, read at most once however many rules look at it. */
interface CheckContext {
  readonly name: string;
  readonly args: ToolArgs;
  readonly shell: boolean;
  /** The commands of every field the shell call runs; null when it has none. */
  commands?: Subjects | null;
}

/** A condition on one call: it holds, it does not, or it cannot be decided (why, for the message). */
type Holds = boolean | { readonly undecided: string };

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
    this.#rules = effects.flatMap((effect) => (config[effect] ?? []).flatMap((rule) => compileRule(effect, rule, this.#home)));
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
   * shell call (`isShellCall`: kind `shell`, or a shell tool's name such as `Bash`, `run_terminal_cmd` or
   * `mcp__shell__bash`) has what it runs (`shellCommands`: `command`, `cmd`, `script`, `argv`, a command
   * with its `args`) matched command by command.
   */
  check(toolName: string, args: ToolArgs, kind?: string): RuleMatch | undefined {
    const context: CheckContext = { name: toolName, args, shell: isShellCall(kind === undefined ? { name: toolName } : { name: toolName, kind }) };
    let triedTogether = false;
    for (const rule of this.#rules) {
      if (rule.effect === "ask" && !triedTogether) {
        triedTogether = true;
        const together = context.shell ? this.#allowedTogether(toolName, context) : undefined;
        if (together) return together;
      }
      const holds = this.#matches(rule, toolName, context);
      if (holds !== false) return { decision: decisionOf(rule, holds === true ? undefined : holds.undecided), source: rule.source };
    }
    return triedTogether || !context.shell ? undefined : this.#allowedTogether(toolName, context);
  }

  /**
   * A shell line no single allow rule covers, whose every command some allow rule covers
   * (`git status && npm test` with `git status*` and `npm test*`): allowed, named after the first of them.
   * Only rules with a shell condition, whose other conditions hold, take part.
   */
  #allowedTogether(toolName: string, context: CheckContext): RuleMatch | undefined {
    const rules: { rule: CompiledRule; conditions: CompiledCondition[] }[] = [];
    for (const rule of this.#rules) {
      const conditions = rule.args.filter((condition) => condition.shell);
      if (rule.effect !== "allow" || conditions.length === 0 || !rule.tool(toolName, context.shell)) continue;
      if (!rule.args.every((condition) => condition.shell || this.#holds(condition, "allow", context) === true)) continue;
      rules.push({ rule, conditions });
    }
    if (rules.length < 2) return undefined;
    const commands = this.#commands(context)?.all;
    if (commands === undefined) return undefined;
    const used = new Set<CompiledRule>();
    const covered = commands.every((command) => {
      const by = rules.find(({ conditions }) => conditions.every((condition) => condition.value(command)));
      if (by) used.add(by.rule);
      return by !== undefined;
    });
    if (!covered) return undefined;
    const names = [...used].map((rule) => `"${rule.source.name}"`).join(", ");
    return { decision: { action: "allow", reason: `every command is allowed by permission rules ${names}` }, source: [...used][0]!.source };
  }

  /** Whether every condition of a rule holds; undecided when one cannot be decided and none fails. */
  #matches(rule: CompiledRule, toolName: string, context: CheckContext): Holds {
    if (!rule.tool(toolName, context.shell)) return false;
    let undecided: Holds = true;
    for (const condition of rule.args) {
      const holds = this.#holds(condition, rule.effect, context);
      if (holds === false) return false;
      if (holds !== true) undecided = holds;
    }
    return undecided;
  }

  /**
   * A deny or ask condition holds when its glob matches any subject, and cannot be decided on a shell line
   * that cannot be read (so the rule applies: fail closed); an allow condition holds when it matches all.
   */
  #holds(condition: CompiledCondition, effect: RuleEffect, context: CheckContext): Holds {
    const { args } = context;
    const shell = context.shell && condition.shell;
    const value = Object.hasOwn(args, condition.key) ? args[condition.key] : undefined;
    const subjects = shell ? this.#commands(context) : value === undefined ? undefined : this.#subjects(condition, value);
    if (subjects === undefined || subjects === null) return false;
    if (effect === "allow") return subjects.all?.every(condition.value) === true;
    // Deny and ask also match the whole value, as rules always did: reading it closer only adds matches.
    if (value !== undefined && condition.value(argText(value))) return true;
    if (subjects.any.some(condition.value)) return true;
    return subjects.unreadable === undefined ? false : { undecided: subjects.unreadable };
  }

  #subjects(condition: CompiledCondition, value: unknown): Subjects {
    if (!condition.path) {
      if (!Array.isArray(value)) return { any: [argText(value)], all: [argText(value)] };
      const elements = value.map(argText);
      return { any: elements, all: elements.length > 0 ? elements : [argText(value)] };
    }
    const elements = Array.isArray(value) ? value : [value];
    const paths = elements.map((element) => (typeof element === "string" ? this.#path(element, condition.absoluteGlob) : undefined));
    const texts = elements.map((element, index) => paths[index]?.text ?? argText(element));
    // A relative glob names paths in the working folder: an allow never vouches for one outside it.
    const outside = !condition.absoluteGlob && paths.some((path) => path?.outside === true);
    const all = outside ? undefined : texts.length > 0 ? texts : [argText(value)];
    return { any: [...texts, ...elements.map(argText)], all };
  }

  #path(value: string, absoluteGlob: boolean): { text: string; outside: boolean } {
    const text = normalizedPath(value, absoluteGlob, this.#cwd, this.#home);
    return { text, outside: !absoluteGlob && text.startsWith("/") };
  }

  /** What a shell call runs, every field together, read once per check whichever rules look at it. */
  #commands(context: CheckContext): Subjects | null {
    if (context.commands !== undefined) return context.commands;
    this.#environment ??= analysisEnvironment({ projectRoot: this.#cwd, home: this.#home, tmp: tmpdir() });
    const fields = shellCommands(context);
    let read: Subjects | null = null;
    for (const { field, command } of fields) {
      const argv = argvOf(context.args, field);
      const subjects: Subjects =
        command === undefined
          ? { any: [], all: undefined, unreadable: `args.${field} is not a command line (a string) or an argv (an array of strings)` }
          : argv === undefined
            ? shellSubjects(command, this.#environment)
            : argvSubjects(argv, this.#environment);
      read = read === null ? subjects : joined(read, subjects);
    }
    context.commands = read;
    return read;
  }
}

/** The argv a field holds, when it is one (`["bash", "-lc", "…"]`, or a `command` with its `args` array). */
function argvOf(args: ToolArgs, field: string): string[] | undefined {
  const value = args[field];
  if (isStrings(value) && value.length > 1) return value;
  const extra = args["args"];
  if (field === "command" && typeof value === "string" && isStrings(extra)) return [value, ...extra];
  return undefined;
}

/** Two fields of one call: deny and ask see both, an allow needs both. */
function joined(first: Subjects, second: Subjects): Subjects {
  const any = [...first.any, ...second.any];
  const all = first.all === undefined || second.all === undefined ? undefined : [...first.all, ...second.all];
  const unreadable = first.unreadable ?? second.unreadable;
  return unreadable === undefined ? { any, all } : { any, all, unreadable };
}

function isStrings(value: unknown): value is string[] {
  return Array.isArray(value) && value.length > 0 && value.every((element) => typeof element === "string");
}

/** Why a rule string is malformed, or undefined when it is well formed (for the config schema). */
export function ruleSyntaxError(rule: string): string | undefined {
  if (isClaudeCodeRule(rule)) {
    const read = readClaudeCodeRule(rule);
    return "error" in read ? read.error : undefined;
  }
  const [tool, ...conditions] = rule.split(conditionSplit);
  if (!tool) return "the tool glob before the first `:` is empty";
  if (tool.includes(":")) return "a `:` must be followed by arg=valueGlob";
  for (const condition of conditions) if (!argCondition.test(condition)) return `"${condition}" is not arg=valueGlob`;
  return undefined;
}

/** A rule as it is checked: one, or one per tool for a Claude Code file rule (each tool names its path differently). */
function compileRule(effect: RuleEffect, rule: string, home: string): CompiledRule[] {
  const source: PolicySource = Object.freeze({ kind: "rule", name: rule });
  if (isClaudeCodeRule(rule)) return compileClaudeCodeRule(effect, rule, source, home);
  const [tool = "", ...conditions] = rule.split(conditionSplit);
  const args = conditions.map((condition): CompiledCondition => {
    const [, key = "", written = ""] = argCondition.exec(condition) ?? [];
    return globCondition(key, written, home);
  });
  const matchesTool = picomatch(tool, globOptions);
  return [{ effect, source, tool: (name) => matchesTool(name), args }];
}

function globCondition(key: string, written: string, home: string, path = false): CompiledCondition {
  const glob = expandHome(written, home);
  const absoluteGlob = glob.startsWith("/");
  const matcher = picomatch(glob, globOptions);
  // One argument only: picomatch reads a second one (an index, from `some`) as "return an object".
  const value = (text: string) => matcher(text);
  return { key, value, path: path || absoluteGlob || written.startsWith("~") || isPathKey(key), absoluteGlob, shell: commandFields.includes(key) };
}

function compileClaudeCodeRule(effect: RuleEffect, rule: string, source: PolicySource, home: string): CompiledRule[] {
  const read = readClaudeCodeRule(rule, effect);
  // The config schema refuses such a rule with this message; a host built around the schema still fails closed here.
  if ("error" in read) throw new Error(read.error);
  if (read.toolGlob !== undefined) {
    const matchesTool = picomatch(read.toolGlob, globOptions);
    return [{ effect, source, tool: (name) => matchesTool(name), args: [] }];
  }
  const claude: ClaudeRule = read;
  if (claude.tools === "shell") {
    const args = claude.conditions.flatMap((condition) => (condition === undefined ? [] : [claudeCondition(condition, home)]));
    return [{ effect, source, tool: (_name, shell) => shell, args }];
  }
  return claude.tools.map((tool, index) => {
    const condition = claude.conditions[index];
    const lower = tool.toLowerCase();
    return { effect, source, tool: (name) => name.toLowerCase() === lower, args: condition === undefined ? [] : [claudeCondition(condition, home)] };
  });
}

function claudeCondition(condition: NonNullable<ClaudeRule["conditions"][number]>, home: string): CompiledCondition {
  if (condition.pathGlob !== undefined) return globCondition(condition.key, condition.pathGlob, home, true);
  const value = condition.value ?? (() => false);
  return { key: condition.key, value, path: false, absoluteGlob: false, shell: condition.shell };
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

/** The rule's decision; `undecided` says why a deny or ask applied to a line that could not be read. */
function decisionOf(rule: CompiledRule, undecided?: string): PreToolCallDecision {
  const text = rule.source.name;
  const why = undecided === undefined ? "" : `: the command line cannot be read with confidence (${undecided}), so it may run what the rule names`;
  if (rule.effect === "deny") return { action: "block", message: `this call is denied by the project's permissions (deny rule "${text}")${why}` };
  if (rule.effect === "ask") return { action: "ask", message: `this call needs approval (ask rule "${text}")${why}` };
  return { action: "allow", reason: `allowed by permission rule "${text}"` };
}
