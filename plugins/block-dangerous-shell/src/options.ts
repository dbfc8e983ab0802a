import * as v from "valibot";
import { builtinRules, type Rule } from "./rules.js";

const pluginName = "block-dangerous-shell";

/** Tool names whose calls are treated as shell commands, besides every call with `kind: "shell"`. */
export const defaultShellTools = ["terminal", "shell", "bash", "sh", "exec", "run_command", "execute_command"] as const;

/** A rule of your own: the command line is blocked when `pattern` matches it anywhere. */
export interface ExtraRule {
  /** Names the rule in `disable` and in the README of your config. */
  id: string;
  /** A regular expression (its source as a string, or a RegExp) tested against the whole command line. */
  pattern: string | RegExp;
  /** Flags for a string `pattern`, e.g. `"i"`. @default "" */
  flags?: string;
  /** What the model is told: say what was refused and what to do instead. */
  message: string;
}

export interface BlockDangerousShellOptions {
  /**
   * Tool names whose calls carry a shell command (in `args.command`, `args.cmd` or `args.script`).
   * Replaces the default list; calls with `kind: "shell"` are always checked.
   * @default ["terminal", "shell", "bash", "sh", "exec", "run_command", "execute_command"]
   */
  tools?: string[];
  /** More rules, checked after the built-in ones. @default [] */
  extraRules?: ExtraRule[];
  /** Ids of rules (built-in or extra) to turn off, e.g. `["sudo"]`. @default [] */
  disable?: string[];
}

const nonEmptyString = (what: string) => v.pipe(v.string(`${what} must be a string`), v.nonEmpty(`${what} must not be empty`));
const stringList = (what: string) => v.array(nonEmptyString(`each entry of ${what}`), `${what} must be an array of strings`);

const ExtraRuleSchema = v.strictObject(
  {
    id: nonEmptyString("id"),
    pattern: v.union([v.instance(RegExp), nonEmptyString("pattern")], "pattern must be a regular expression source string or a RegExp"),
    flags: v.optional(v.string("flags must be a string")),
    message: nonEmptyString("message"),
  },
  "is not a rule field (id, pattern, flags, message)",
);

const OptionsSchema = v.strictObject(
  {
    tools: v.optional(stringList("tools")),
    extraRules: v.optional(v.array(ExtraRuleSchema, "extraRules must be an array of { id, pattern, message }")),
    disable: v.optional(stringList("disable")),
  },
  "is not an option of this plugin (tools, extraRules, disable)",
);

export interface ResolvedOptions {
  tools: ReadonlySet<string>;
  rules: readonly Rule[];
}

/** Validates the options and builds the active rule list; throws an Error naming the plugin and the option. */
export function resolveOptions(input: unknown): ResolvedOptions {
  const parsed = v.safeParse(OptionsSchema, input ?? {});
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const path = v.getDotPath(issue);
    throw new Error(`${pluginName}: ${path === null ? "options" : `option "${path}"`}: ${issue.message} (got ${issue.received})`);
  }
  const { tools = defaultShellTools, extraRules = [], disable = [] } = parsed.output;
  const extra = extraRules.map(compileExtraRule);
  const all = [...builtinRules, ...extra];
  const ids = all.map((rule) => rule.id);
  const duplicate = ids.find((id, index) => ids.indexOf(id) !== index);
  if (duplicate !== undefined) throw new Error(`${pluginName}: option "extraRules": the rule id "${duplicate}" is used twice`);
  const unknown = disable.find((id) => !ids.includes(id));
  if (unknown !== undefined) throw new Error(`${pluginName}: option "disable": unknown rule "${unknown}" (known rules: ${ids.join(", ")})`);
  return { tools: new Set(tools), rules: all.filter((rule) => !disable.includes(rule.id)) };
}

function compileExtraRule(rule: v.InferOutput<typeof ExtraRuleSchema>, index: number): Rule {
  let pattern: RegExp;
  try {
    // `g` and `y` would make `test` remember lastIndex between calls.
    const source = typeof rule.pattern === "string" ? rule.pattern : rule.pattern.source;
    const flags = (typeof rule.pattern === "string" ? (rule.flags ?? "") : rule.pattern.flags).replace(/[gy]/g, "");
    pattern = new RegExp(source, flags);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`${pluginName}: option "extraRules.${index}.pattern" (rule "${rule.id}") is not a valid regular expression: ${reason}`);
  }
  return { id: rule.id, message: rule.message, matches: (command) => pattern.test(command) };
}
