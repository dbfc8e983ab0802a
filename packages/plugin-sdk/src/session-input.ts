/**
 * Tools that type into a shell session started by an earlier call (Codex's `write_stdin`, and tools named
 * like it): what they send is run by that shell, so it is a command line too.
 */
const inputTools: ReadonlySet<string> = new Set([
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
export const inputFields: readonly string[] = Object.freeze(["chars", "input", "text", "keys", "data"]);

/** Whether a tool name (lower-case, and after any server or namespace prefix) types into a shell session. */
export function isInputToolName(name: string, lastSegment: string): boolean {
  return inputTools.has(name) || inputTools.has(lastSegment);
}

// Keys an interactive shell acts on besides typing: interrupt (Ctrl-C), end of input (Ctrl-D), suspend (Ctrl-Z), quit (Ctrl-\\).
const signalKeys: ReadonlySet<number> = new Set([3, 4, 26, 28]);

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
export function sessionInput(text: string): string | undefined {
  if (text === "" || onlyKeys(text, signalKeys)) return "";
  const lines = text.replace(/\r\n?/g, "\n");
  if (!lines.endsWith("\n")) return undefined;
  if (hasEditingKeys(lines)) return undefined;
  if (/![^\s=(]|(^|\n)\s*\^/.test(lines)) return undefined;
  return lines;
}
