import { inputFields, isInputToolName, sessionInput } from "./session-input.js";
import type { ToolCall } from "./tool-call.js";
import { shellToolNames } from "./tool-kinds.js";

// The shell rows of the one tool-kind table.
const defaultShellTools: ReadonlySet<string> = new Set(shellToolNames);

/** `mcp__shell__bash` → `bash`, `functions.exec` → `exec`: the tool's own name after a server or namespace prefix. */
function lastSegment(name: string): string {
  return name.split(/__|[.:/]/).pop() ?? "";
}

/**
 * Whether a call runs shell command lines: its `kind` is `"shell"`, or its name, or its name after an MCP
 * server or namespace prefix (`mcp__shell__bash`, `functions.exec`), is one of `tools` (lower-case); or it
 * types into a shell session an earlier call started (Codex's `write_stdin`, `send_input`, …), whatever `tools` says.
 * @default tools: `shellToolNames`
 */
export function isShellCall(call: Pick<ToolCall, "name" | "kind">, tools: ReadonlySet<string> = defaultShellTools): boolean {
  if (call.kind === "shell") return true;
  const name = call.name.toLowerCase();
  const last = lastSegment(name);
  return tools.has(name) || tools.has(last) || isInputToolName(name, last);
}

/** The call fields a shell tool may run: a command line, or an argv array. */
export const commandFields: readonly string[] = Object.freeze(["command", "cmd", "script", "argv"]);

/** One field of a shell call and the command line it runs; `command` is undefined when it cannot be read. */
export interface ShellCommandField {
  readonly field: string;
  readonly command: string | undefined;
}

/**
 * What each present field of a shell call would run (`args.command`, `args.cmd`, `args.script`, `args.argv`).
 * A string is a command line; a one-element array of strings is the command line itself; a longer array is
 * an argv (`["bash", "-lc", "…"]`), so each element is quoted to keep its boundaries. A program and its
 * arguments apart (`{ command: "rm", args: ["-rf", "/"] }` or `args: "-rf /"`) are one command. A field holding
 * anything else (a number, an object, an array of non-strings) has `command: undefined`: what it would run
 * cannot be read, so a policy refuses the call rather than let it through unchecked. A tool that types into a
 * shell session also runs what it sends (`args.chars`, `args.input`, `args.text`, `args.keys`, `args.data`),
 * when that is whole lines without editing keys or history expansion (else `command: undefined`).
 */
export function shellCommands(call: Pick<ToolCall, "name" | "args">): ShellCommandField[] {
  const found: ShellCommandField[] = [];
  for (const field of commandFields) {
    const value = call.args[field];
    if (value === undefined || value === null) continue;
    if (field === "command" && typeof value === "string") found.push({ field, command: withArguments(value, call.args["args"]) });
    else found.push({ field, command: readCommand(value) });
  }
  const name = call.name.toLowerCase();
  if (!isInputToolName(name, lastSegment(name))) return found;
  for (const field of inputFields) {
    const value = call.args[field];
    if (value === undefined || value === null) continue;
    found.push({ field, command: typeof value === "string" ? sessionInput(value) : undefined });
  }
  return found;
}

/**
 * A program with its arguments beside it: `args: ["-rf", "/"]` is an argv after the program, `args: "-rf /"`
 * the rest of its command line; an array that holds anything but strings cannot be read. Other values
 * (options objects) are not part of what runs.
 */
function withArguments(command: string, extra: unknown): string | undefined {
  if (typeof extra === "string") return extra === "" ? command : `${command} ${extra}`;
  if (!Array.isArray(extra) || extra.length === 0) return command;
  return extra.every((part): part is string => typeof part === "string") ? [command, ...extra].map(quoteWord).join(" ") : undefined;
}

function readCommand(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (!Array.isArray(value) || value.length === 0 || !value.every((part): part is string => typeof part === "string")) return undefined;
  return value.length === 1 ? value[0] : value.map(quoteWord).join(" ");
}

/** One argv element as a shell word: as it is when plain, else single-quoted. */
export function quoteWord(part: string): string {
  return /^[\w@%+=:,./-]+$/.test(part) ? part : `'${part.replaceAll("'", `'\\''`)}'`;
}
