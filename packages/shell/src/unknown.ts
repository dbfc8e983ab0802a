/**
 * Stands in a word for text that is only known when the line runs (`$UNKNOWN`, `$(cat list)`, `${x@P}`):
 * a word that holds it has no value the reader can vouch for. A private-use character, so a line that
 * spells it out itself is only ever read as more unknown, never as less.
 */
export const unknownText = "\u{F8FF}";

/** True when some part of the word is only known at run time: such a word is never classified as safe. */
export function isUnknown(word: string): boolean {
  return word.includes(unknownText);
}
