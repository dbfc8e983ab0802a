/**
 * A `$`, backtick or `~` that was quoted or escaped is text, never an expansion: in the form of a word that
 * expansion reads (`Word.expandable`) each one is a private-use stand-in, turned back after expansion.
 */

const standIns: Record<string, string> = { $: "\uE024", "`": "\uE060", "~": "\uE07E" };
const originals: Record<string, string> = { "\uE024": "$", "\uE060": "`", "\uE07E": "~" };
const mayExpand = /[$`~]/;
const expandChars = /[$`~]/g;
const standInChars = /[\uE024\uE060\uE07E]/g;

/** Whether `text` holds a character expansion would act on (`$`, backtick, `~`). */
export function holdsExpansionCharacter(text: string): boolean {
  return mayExpand.test(text);
}

/** `text` with every `$`, backtick and `~` made a stand-in: text that is kept as it is. */
export function asLiteral(text: string): string {
  return mayExpand.test(text) ? text.replace(expandChars, (char) => standIns[char]!) : text;
}

/** The stand-ins turned back into the characters they stand for. */
export function fromLiteral(text: string): string {
  return text.replace(standInChars, (char) => originals[char]!);
}
