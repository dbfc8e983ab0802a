import { homedir } from "node:os";
import { definePlugin, type ToolCall } from "@toolgate/plugin-sdk";
import { checkCommand } from "./check.js";
import { explainCheck, type ShellExplanation } from "./explain.js";
import { resolveOptions, type BlockDangerousShellOptions } from "./options.js";
import type { PackName } from "./rules/rule.js";

export type { BlockDangerousShellOptions, ExtraRule } from "./options.js";
export type { ShellExplanation } from "./explain.js";

/**
 * Refuses destructive shell commands: recursive deletes of `/`, `~`, system folders, the project root
 * or anything outside the project; destructive git commands; fork bombs, `mkfs`, raw disk writes,
 * `curl … | sh`, writes to `/etc`, `sudo`; and, in opt-in packs, database, container, Kubernetes,
 * cloud and Terraform destruction. A guard rail against accidents, not a sandbox: it reads the command
 * line, it cannot see what a script file or a variable set elsewhere will do at run time.
 */
export default definePlugin<BlockDangerousShellOptions>((options, api) => {
  const { tools, guard, packs } = resolveOptions(options, { projectRoot: api.cwd, home: homedir() });
  const isShellCall = (call: ToolCall) => call.kind === "shell" || tools.has(call.name.toLowerCase()) || tools.has(lastSegment(call.name));
  return {
    name: "block-dangerous-shell",
    description: "Refuses destructive shell commands (rm -rf outside the project, destructive git, fork bombs, mkfs, curl | sh, sudo, …)",
    // Runs before other policies, so its specific message is the one the model sees.
    order: -100,
    hooks: {
      pre_tool_call(call) {
        if (!isShellCall(call)) return;
        // Every field the tool may run is checked: the call passes only when each one does.
        for (const field of commandsOf(call)) {
          if (field.command === undefined) return { action: "block", message: unreadable(field.field) };
          const { violation } = checkCommand(field.command, guard, cwdOf(call));
          if (violation) return { action: "block", message: violation.message };
        }
      },
    },
    explain(call: ToolCall): ShellExplanation {
      if (!isShellCall(call))
        return { checked: false, reason: `"${call.name}" is not a shell tool (kind "${call.kind ?? "function"}"; shell tools: ${[...tools].join(", ")})` };
      const fields = commandsOf(call);
      if (fields.length === 0) return { checked: false, reason: `the call has none of ${commandFields.map((name) => `args.${name}`).join(", ")}` };
      // The first field that is refused (or cannot be read) explains the decision; else the first field.
      let first: ShellExplanation | undefined;
      for (const { field, command } of fields) {
        if (command === undefined) return unreadableExplanation(call, field, packs, guard.context.projectRoot);
        const explanation = explainCheck(command, checkCommand(command, guard, cwdOf(call)), guard, packs);
        if (explanation.checked && explanation.verdict.action === "block") return explanation;
        first ??= explanation;
      }
      return first!;
    },
  };
});

/** `mcp__shell__bash` → `bash`, `functions.exec` → `exec`: the tool's own name after a server or namespace prefix. */
function lastSegment(name: string): string {
  return (
    name
      .toLowerCase()
      .split(/__|[.:/]/)
      .pop() ?? ""
  );
}

/** The call fields a shell tool may run: a command line, or an argv array. */
export const commandFields = ["command", "cmd", "script", "argv"] as const;

/**
 * What each present field of a shell call would run (`args.command`, `args.cmd`, `args.script`, `args.argv`).
 * A string is a command line; a one-element array of strings is the command line itself; a longer array is
 * an argv (`["bash", "-lc", "…"]`), so each element is quoted to keep its boundaries. A program and its
 * arguments apart (`{ command: "rm", args: ["-rf", "/"] }` or `args: "-rf /"`) are one command. A field holding anything else (a
 * number, an object, an array of non-strings) has `command: undefined`: what it would run cannot be read,
 * so the call is refused rather than let through unchecked.
 */
export function commandsOf(call: ToolCall): { field: string; command: string | undefined }[] {
  const found: { field: string; command: string | undefined }[] = [];
  for (const field of commandFields) {
    const value = call.args[field];
    if (value === undefined || value === null) continue;
    if (field === "command" && typeof value === "string") found.push({ field, command: withArguments(value, call.args["args"]) });
    else found.push({ field, command: readCommand(value) });
  }
  return found;
}

/** The first command line of a shell call (see `commandsOf`), or undefined when there is none that can be read. */
export function commandOf(call: ToolCall): string | undefined {
  return commandsOf(call)[0]?.command;
}

/**
 * A program with its arguments beside it: `args: ["-rf", "/"]` is an argv after the program, `args: "-rf /"`
 * the rest of its command line; an array that holds anything but strings cannot be read. Other values
 * (options objects) are not part of what runs.
 */
function withArguments(command: string, extra: unknown): string | undefined {
  if (typeof extra === "string") return extra === "" ? command : `${command} ${extra}`;
  if (!Array.isArray(extra)) return command;
  if (extra.length === 0) return command;
  return extra.every((part): part is string => typeof part === "string") ? [command, ...extra].map(quote).join(" ") : undefined;
}

function readCommand(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (!Array.isArray(value) || value.length === 0 || !value.every((part): part is string => typeof part === "string")) return undefined;
  return value.length === 1 ? value[0] : value.map(quote).join(" ");
}

function unreadableExplanation(call: ToolCall, field: string, packs: readonly PackName[], projectRoot: string): ShellExplanation {
  const message = unreadable(field);
  const command = JSON.stringify(call.args[field]) ?? String(call.args[field]);
  const verdict = { action: "block" as const, rule: "unreadable", message };
  return { checked: true, command, cwd: projectRoot, projectRoot, packs, problems: [message], scripts: [], commands: [], deletes: [], verdict };
}

function unreadable(field: string): string {
  return `refusing a shell call whose args.${field} is not a command line (a string) or an argv (an array of strings), so what it would run cannot be checked. Pass the command as a string.`;
}

/** The folder the command runs in, when the call says (`cwd`, `workdir`, `directory`): relative to the project. */
function cwdOf(call: ToolCall): string | undefined {
  const value = call.args["cwd"] ?? call.args["workdir"] ?? call.args["working_directory"] ?? call.args["directory"];
  return typeof value === "string" && value !== "" ? value : undefined;
}

function quote(part: string): string {
  return /^[\w@%+=:,./-]+$/.test(part) ? part : `'${part.replaceAll("'", `'\\''`)}'`;
}
