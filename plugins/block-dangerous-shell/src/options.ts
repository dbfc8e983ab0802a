import { tmpdir } from "node:os";
import { posix } from "node:path";
import { optionsError, shellToolNames } from "@toolgate/plugin-sdk";
import * as v from "valibot";
import type { Guard } from "./check.js";
import { builtinRules } from "./rules/builtin-rules.js";
import { optInPacks, type PackName, type Rule } from "./rules/rule.js";

const pluginName = "block-dangerous-shell";

/** A rule of your own: the command line is blocked when `pattern` matches it anywhere. */
export interface ExtraRule {
  /** Names the rule in `disable` and in explain. */
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
   * Tool names whose calls carry a shell command (in `args.command`, `args.cmd` or `args.script`),
   * matched case-insensitively, also after an MCP server or namespace prefix (`mcp__shell__bash`). Replaces
   * the default list; calls with `kind: "shell"` are always checked.
   * @default shellToolNames from `@toolgate/plugin-sdk` (the list the permission rules use too)
   */
  tools?: string[];
  /**
   * Opt-in rule packs: `"databases"`, `"containers"`, `"kubernetes"`, `"cloud"`, `"terraform"`.
   * The core rules and the `git` pack are always on (turn git off with `disable: ["git"]`).
   * @default []
   */
  packs?: string[];
  /**
   * Rule ids, or the pack name `"git"`, to turn off, e.g. `["sudo"]`. Catastrophic rules (deletes of
   * `/`, `~`, system folders or the project root, fork bombs, disk writes, mkfs) cannot be turned off.
   * @default []
   */
  disable?: string[];
  /**
   * Recursive deletes outside the project and the temp folders: `"block"` refuses them, `"allow"` lets
   * them through (catastrophic targets stay refused).
   * @default "block"
   */
  deleteOutsideProject?: "block" | "allow";
  /** More folders (absolute, `~/…`, or relative to the project) where recursive deletes are allowed. @default [] */
  allowDeleteIn?: string[];
  /**
   * A command that cannot be parsed with confidence (an unterminated quote, nesting too deep): `"block"`
   * refuses it (fail closed), `"allow"` lets it through when no rule matched what could be read.
   * @default "block"
   */
  onUnparseable?: "block" | "allow";
  /**
   * A command whose name is only known at run time (`$CMD -rf /`, `"$(cat cmd.txt)" x`, `/bin/r? x`):
   * `"block"` refuses it (fail closed), `"allow"` lets it through when no rule matched. `$EDITOR`, `$VISUAL`,
   * `$PAGER` and `$SHELL` always run.
   * @default "block"
   */
  onUnresolvedCommand?: "block" | "allow";
  /** More rules, checked after the built-in ones. @default [] */
  extraRules?: ExtraRule[];
}

const nonEmptyString = (what: string) => v.pipe(v.string(`${what} must be a string`), v.nonEmpty(`${what} must not be empty`));
const stringList = (what: string) => v.array(nonEmptyString(`each entry of ${what}`), `${what} must be an array of strings`);
const choice = (what: string) => v.picklist(["block", "allow"], `${what} must be "block" or "allow"`);

const ExtraRuleSchema = v.strictObject(
  {
    id: nonEmptyString("id"),
    pattern: v.union([v.instance(RegExp), nonEmptyString("pattern")], "pattern must be a regular expression source string or a RegExp"),
    flags: v.optional(v.string("flags must be a string")),
    message: nonEmptyString("message"),
  },
  "is not a rule field (id, pattern, flags, message)",
);

const optionNames = ["tools", "packs", "disable", "deleteOutsideProject", "allowDeleteIn", "onUnparseable", "onUnresolvedCommand", "extraRules"];

const OptionsSchema = v.strictObject(
  {
    tools: v.optional(stringList("tools")),
    packs: v.optional(stringList("packs")),
    disable: v.optional(stringList("disable")),
    deleteOutsideProject: v.optional(choice("deleteOutsideProject")),
    allowDeleteIn: v.optional(stringList("allowDeleteIn")),
    onUnparseable: v.optional(choice("onUnparseable")),
    onUnresolvedCommand: v.optional(choice("onUnresolvedCommand")),
    extraRules: v.optional(v.array(ExtraRuleSchema, "extraRules must be an array of { id, pattern, message }")),
  },
  `is not an option of this plugin (${optionNames.join(", ")})`,
);

export interface ResolvedOptions {
  /** Lower-case tool names. */
  tools: ReadonlySet<string>;
  packs: readonly PackName[];
  guard: Guard;
}

export interface Environment {
  projectRoot: string;
  home: string;
}

/** Validates the options and builds the guard; throws an Error naming the plugin and the option. */
export function resolveOptions(input: unknown, environment: Environment): ResolvedOptions {
  const parsed = v.safeParse(OptionsSchema, input ?? {});
  if (!parsed.success) {
    throw optionsError(pluginName, OptionsSchema, parsed.issues[0]);
  }
  const options = parsed.output;
  const packs = resolvePacks(options.packs ?? []);
  const extra = (options.extraRules ?? []).map(compileExtraRule);
  const all = [...builtinRules, ...extra];
  checkIds(all, options.disable ?? []);
  const disabled = new Set(options.disable ?? []);
  if (options.deleteOutsideProject === "allow") disabled.add("rm-outside-project");
  const active = new Set<PackName>(["core", "git", ...packs]);
  const rules = all.filter((rule) => active.has(rule.pack) && !disabled.has(rule.id) && !disabled.has(rule.pack));
  const { projectRoot, home } = environment;
  const resolveFolder = (folder: string) => posix.resolve(projectRoot, folder === "~" || folder.startsWith("~/") ? home + folder.slice(1) : folder);
  const tmp = process.env["TMPDIR"] ?? tmpdir();
  const tempDirs = [
    ...new Set(["/tmp", "/var/tmp", "/private/tmp", "/private/var/tmp", "/private/var/folders", "/dev/shm", posix.resolve(tmp), posix.resolve(tmpdir())]),
  ];
  return {
    tools: new Set((options.tools ?? shellToolNames).map((tool) => tool.toLowerCase())),
    packs: (["git", ...packs] as PackName[]).filter((pack) => !disabled.has(pack)),
    guard: {
      rules,
      tmp,
      onUnparseable: disabled.has("unparseable") ? "allow" : (options.onUnparseable ?? "block"),
      onUnresolvedCommand: disabled.has("unresolved-command") ? "allow" : (options.onUnresolvedCommand ?? "block"),
      context: { projectRoot, home, tempDirs, allowDeleteIn: (options.allowDeleteIn ?? []).map(resolveFolder) },
    },
  };
}

function resolvePacks(names: readonly string[]): PackName[] {
  const unknown = names.find((name) => name !== "git" && !optInPacks.includes(name as PackName));
  if (unknown !== undefined) throw new Error(`${pluginName}: option "packs": unknown pack "${unknown}" (packs: ${optInPacks.join(", ")}; git is always on)`);
  return names.filter((name): name is PackName => name !== "git");
}

function checkIds(all: readonly Rule[], disable: readonly string[]): void {
  const ids = all.map((rule) => rule.id);
  const duplicate = ids.find((id, index) => ids.indexOf(id) !== index);
  if (duplicate !== undefined) throw new Error(`${pluginName}: option "extraRules": the rule id "${duplicate}" is used twice`);
  for (const id of disable) {
    const rule = all.find((candidate) => candidate.id === id);
    if (rule?.catastrophic) throw new Error(`${pluginName}: option "disable": the rule "${id}" guards against catastrophic damage and cannot be turned off`);
    if (!rule && id !== "git" && id !== "unparseable" && id !== "unresolved-command") {
      const known = ids.filter((candidate) => !all.find((other) => other.id === candidate)?.catastrophic);
      throw new Error(`${pluginName}: option "disable": unknown rule "${id}" (rules that can be turned off: git, ${known.join(", ")})`);
    }
  }
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
  return {
    id: rule.id,
    pack: "core",
    summary: `your rule: ${pattern}`,
    check: ({ analysis }) => (pattern.test(analysis.source) ? rule.message : undefined),
  };
}
