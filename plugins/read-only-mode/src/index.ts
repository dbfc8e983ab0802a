import { definePlugin, optionsError } from "@toolgate/plugin-sdk";
import * as v from "valibot";

const pluginName = "read-only-mode";

/**
 * Tool names that can change things: any name containing one of these words, in any case
 * (`write_file`, `WriteFile`, `str_replace_based_edit_tool`, `db_insert`, `run_terminal_cmd`, …).
 */
export const defaultWritePattern = "write|edit|delete|remove|create|move|rename|update|patch|append|mkdir|upload|insert|drop|terminal|shell|bash|exec";

/**
 * Kinds that change things whatever the tool is called: `toolgate hook` gives coding agents' shell,
 * edit and write tools these kinds (`Bash`, `run_shell_command`, `Edit`, `write_file`, `apply_patch`, …).
 */
export const writeKinds: ReadonlySet<string> = new Set(["shell", "edit", "write"]);

/** `{tool}` is replaced with the tool's name. */
export const defaultMessage = 'this session is read-only: "{tool}" can change things. Use read-only tools (read, list, search) instead.';

export interface ReadOnlyModeOptions {
  /**
   * Tool names matching this regular expression are blocked. A string is compiled case-insensitively;
   * pass a RegExp to choose the flags yourself.
   * @default "write|edit|delete|remove|create|move|rename|update|patch|append|mkdir|upload|insert|drop|terminal|shell|bash|exec"
   */
  writePattern?: string | RegExp;
  /** Tool names that are always allowed, whatever their name or kind; matched in any case. @default [] */
  allow?: string[];
  /**
   * What the model is told; `{tool}` is replaced with the tool's name.
   * @default 'this session is read-only: "{tool}" can change things. Use read-only tools (read, list, search) instead.'
   */
  message?: string;
}

const OptionsSchema = v.strictObject(
  {
    writePattern: v.optional(
      v.union([v.instance(RegExp), v.pipe(v.string(), v.nonEmpty())], "writePattern must be a non-empty regular expression source string or a RegExp"),
    ),
    allow: v.optional(v.array(v.string("each entry of allow must be a tool name (a string)"), "allow must be an array of tool names")),
    message: v.optional(v.pipe(v.string("message must be a string"), v.nonEmpty("message must not be empty"))),
  },
  "is not an option of this plugin (writePattern, allow, message)",
);

/**
 * Blocks every tool call that could change something: tools named like writers (in any case), and every
 * call of kind shell, edit or write.
 */
export default definePlugin<ReadOnlyModeOptions>((options) => {
  const { writePattern, allow, message } = resolveOptions(options);
  return {
    name: pluginName,
    description: "A read-only session: blocks tools whose names say they write, edit, delete or run commands",
    hooks: {
      pre_tool_call(call) {
        if (allow.has(call.name.toLowerCase())) return;
        if ((call.kind !== undefined && writeKinds.has(call.kind.toLowerCase())) || writePattern.test(call.name)) {
          return { action: "block", message: message.replaceAll("{tool}", call.name) };
        }
      },
    },
  };
});

function resolveOptions(input: unknown): { writePattern: RegExp; allow: ReadonlySet<string>; message: string } {
  const parsed = v.safeParse(OptionsSchema, input ?? {});
  if (!parsed.success) {
    throw optionsError(pluginName, OptionsSchema, parsed.issues[0]);
  }
  const { writePattern = defaultWritePattern, allow = [], message = defaultMessage } = parsed.output;
  return { writePattern: compile(writePattern), allow: new Set(allow.map((name) => name.toLowerCase())), message };
}

function compile(pattern: string | RegExp): RegExp {
  // `g` and `y` would make `test` remember lastIndex from one call to the next.
  if (pattern instanceof RegExp) return new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, ""));
  try {
    return new RegExp(pattern, "i");
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`${pluginName}: option "writePattern" is not a valid regular expression: ${reason}`);
  }
}
