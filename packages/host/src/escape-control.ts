// C0 controls but tab, DEL and C1 controls, the Unicode line and paragraph separators, and the
// bidirectional marks, embeddings, overrides and isolates: everything that can end a log line, move the
// cursor, start a terminal escape sequence or reorder what a reader sees.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this module's job
const controlCharacters = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const named: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\b": "\\b", "\f": "\\f", "\v": "\\v" };

/**
 * `text` with every control character written out as an escape (`\x1b`, `\n`, `\u202e`), so that text a
 * plugin supplies (a name, a message, a file name) can neither forge a log line nor rewrite the screen.
 * Escaping is idempotent: the output holds no control character.
 */
export function escapeControl(text: string): string {
  return text.replace(controlCharacters, escapeOne);
}

function escapeOne(character: string): string {
  const code = character.charCodeAt(0);
  return named[character] ?? (code <= 0xff ? `\\x${hex(code, 2)}` : `\\u${hex(code, 4)}`);
}

const jsonUnsafe = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * `JSON.stringify` escapes C0 controls but writes DEL, C1 controls and bidi overrides as they are; this
 * escapes those too (`\u202e`), so the JSON is the same value and is safe to print on a terminal.
 */
export function escapeJsonText(json: string): string {
  return json.replace(jsonUnsafe, (character) => `\\u${hex(character.charCodeAt(0), 4)}`);
}

function hex(code: number, width: number): string {
  return code.toString(16).padStart(width, "0");
}
