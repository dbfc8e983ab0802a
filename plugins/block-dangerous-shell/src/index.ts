import { homedir } from "node:os";
import { posix } from "node:path";
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
  const isShellCall = (call: ToolCall) => call.kind === "shell" || tools.has(call.name.toLowerCase()) || tools.has(lastSegment(call.name)) || isInputTool(call);
  return {
    name: "block-dangerous-shell",
    description: "Refuses destructive shell commands (rm -rf outside the project, destructive git, fork bombs, mkfs, curl | sh, sudo, …)",
    // Runs before other policies, so its specific message is the one the model sees.
    order: -100,
    hooks: {
      pre_tool_call(call) {
        if (!isShellCall(call)) return;
        const folder = cwdOf(call, guard.context.projectRoot);
        if ("problem" in folder) return { action: "block", message: folder.problem };
        // Every field the tool may run is checked: the call passes only when each one does.
        for (const field of commandsOf(call)) {
          if (field.command === undefined) return { action: "block", message: unreadable(field.field) };
          const { violation } = checkCommand(field.command, guard, folder.cwd);
          if (violation) return { action: "block", message: violation.message };
        }
      },
    },
    explain(call: ToolCall): ShellExplanation {
      if (!isShellCall(call))
        return { checked: false, reason: `"${call.name}" is not a shell tool (kind "${call.kind ?? "function"}"; shell tools: ${[...tools].join(", ")})` };
      const fields = commandsOf(call);
      if (fields.length === 0) return { checked: false, reason: `the call has none of ${commandFields.map((name) => `args.${name}`).join(", ")}` };
      const folder = cwdOf(call, guard.context.projectRoot);
      if ("problem" in folder) return refusedExplanation(call, "working-folder", folder.problem, packs, guard.context.projectRoot);
      // The first field that is refused (or cannot be read) explains the decision; else the first field.
      let first: ShellExplanation | undefined;
      for (const { field, command } of fields) {
        if (command === undefined) return unreadableExplanation(call, field, packs, guard.context.projectRoot);
        const explanation = explainCheck(command, checkCommand(command, guard, folder.cwd), guard, packs);
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
  if (isInputTool(call)) {
    for (const field of inputFields) {
      const value = call.args[field];
      if (value === undefined || value === null) continue;
      found.push({ field, command: typeof value === "string" ? sessionInput(value) : undefined });
    }
  }
  return found;
}

/**
 * Tools that type into a shell session started by an earlier call (Codex's `write_stdin`, and tools named
 * like it): what they send is run by that shell, so it is a command line too.
 */
const inputTools = new Set([
  "write_stdin",
  "send_input",
  "terminal_input",
  "write_bash",
  "send_keys",
  "write_terminal",
  "send_to_terminal",
  "terminal_write",
  "write_to_terminal",
  "stdin_write",
]);

/** The fields an input tool sends to the session (`chars` for Codex). */
export const inputFields = ["chars", "input", "text", "keys", "data"] as const;

function isInputTool(call: ToolCall): boolean {
  return inputTools.has(call.name.toLowerCase()) || inputTools.has(lastSegment(call.name));
}

// Keys an interactive shell acts on besides typing: interrupt (Ctrl-C), end of input (Ctrl-D), suspend (Ctrl-Z), quit (Ctrl-\\).
const signalKeys = new Set([3, 4, 26, 28]);

/** Whether every character is one of `codes`. */
function onlyKeys(text: string, codes: ReadonlySet<number>): boolean {
  for (let index = 0; index < text.length; index++) if (!codes.has(text.charCodeAt(index))) return false;
  return true;
}

/** A control character other than a newline or a tab: line editing (backspace, Ctrl-U, Ctrl-W), escape sequences, signals. */
function hasEditingKeys(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if ((code < 32 && code !== 9 && code !== 10) || code === 127) return true;
  }
  return false;
}

/**
 * Text typed into an interactive shell, as the command line it makes; undefined (refused) when it cannot be
 * read as one: a line left unfinished (the next call completes it), line editing keys (backspace, Ctrl-U,
 * escape sequences rewrite what runs), history expansion (`!!`, `!rm`, `^a^b` run earlier lines). A lone
 * interrupt or end-of-input key runs nothing.
 */
function sessionInput(text: string): string | undefined {
  if (text === "" || onlyKeys(text, signalKeys)) return "";
  const lines = text.replace(/\r\n?/g, "\n");
  if (!lines.endsWith("\n")) return undefined;
  if (hasEditingKeys(lines)) return undefined;
  if (/![^\s=(]|(^|\n)\s*\^/.test(lines)) return undefined;
  return lines;
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
  if ((inputFields as readonly string[]).includes(field))
    return `refusing input for a shell session in args.${field}: it is not whole lines of plain text (an unfinished line, editing keys or history expansion such as \`!!\` change what the shell runs), so what it would run cannot be checked. Send complete command lines ending in a newline.`;
  return `refusing a shell call whose args.${field} is not a command line (a string) or an argv (an array of strings), so what it would run cannot be checked. Pass the command as a string.`;
}

function refusedExplanation(call: ToolCall, rule: string, message: string, packs: readonly PackName[], projectRoot: string): ShellExplanation {
  const verdict = { action: "block" as const, rule, message };
  return {
    checked: true,
    command: JSON.stringify(call.args),
    cwd: projectRoot,
    projectRoot,
    packs,
    problems: [message],
    scripts: [],
    commands: [],
    deletes: [],
    verdict,
  };
}

/** The fields agents name the working folder with: Codex `workdir`, Gemini CLI `dir_path` (earlier `directory`), others `cwd`. */
export const folderFields = ["cwd", "workdir", "working_directory", "working_dir", "directory", "dir_path", "dir", "cwd_path"] as const;

/**
 * The folder the command runs in, when the call says: relative to the project. A call that names two
 * different folders in different fields is refused rather than guessed (the agent reads one, a decoy may
 * be the other); so is one whose folder is not a string.
 */
function cwdOf(call: ToolCall, projectRoot: string): { cwd: string | undefined } | { problem: string } {
  let found: { field: string; value: string } | undefined;
  for (const field of folderFields) {
    const value = call.args[field];
    if (value === undefined || value === null || value === "") continue;
    if (typeof value !== "string")
      return {
        problem: `refusing a shell call whose args.${field} is not a folder (a string), so where it runs cannot be checked. Pass the folder as a string.`,
      };
    if (found !== undefined && posix.resolve(projectRoot, found.value) !== posix.resolve(projectRoot, value))
      return {
        problem: `refusing a shell call that names two working folders (args.${found.field} is ${JSON.stringify(found.value)}, args.${field} is ${JSON.stringify(value)}): which one the command runs in cannot be known. Name the folder once.`,
      };
    found ??= { field, value };
  }
  return { cwd: found?.value };
}

function quote(part: string): string {
  return /^[\w@%+=:,./-]+$/.test(part) ? part : `'${part.replaceAll("'", `'\\''`)}'`;
}
