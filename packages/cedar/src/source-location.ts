import type { DetailedError } from "./cedar-wasm.js";

/** A file's text and its name as the user wrote it in the config, for messages. */
export interface CedarSource {
  readonly text: string;
  readonly file: string;
}

/** `file:line:column` of a Cedar source offset (Cedar counts UTF-8 bytes; lines and columns from 1). */
function locate(source: CedarSource, byteOffset: number): string {
  const before = Buffer.from(source.text, "utf8").subarray(0, byteOffset).toString("utf8");
  const lines = before.split("\n");
  return `${source.file}:${lines.length}:${(lines.at(-1)?.length ?? 0) + 1}`;
}

/** One line per error: where (the first source location, or the file alone), what, and Cedar's hint. */
export function describeErrors(source: CedarSource, errors: readonly DetailedError[]): string {
  return errors.map((error) => describeError(source, error)).join("; ");
}

/** `shift`: where, in UTF-8 bytes, the text Cedar located the error in starts within the file (one policy of it). */
export function describeError(source: CedarSource, error: DetailedError, shift = 0): string {
  const first = error.sourceLocations?.[0];
  const where = first === undefined ? source.file : locate(source, first.start + shift);
  const label = first?.label ? ` (${first.label})` : "";
  const help = error.help ? ` (${error.help})` : "";
  return `${where}: ${error.message}${label}${help}`.replace(/\s*\n\s*/g, " ");
}
