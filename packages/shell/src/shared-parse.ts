import { parseScript, type ParseResult } from "./parse.js";
import { readerVersion } from "./reader-version.js";

/**
 * One parse of each script of a line for every reader of that line in one decision: the guard's analysis
 * (`analyze`) and the permission rules' syntactic reading (`simpleCommands`) parse the line, and every
 * `$(…)`, heredoc and `sh -c` script in it, alike. Kept per line (the last few lines), so a script is
 * shared only by readers of the same line, never across decisions.
 *
 * The parse is shared, so no reader may change it: a reader that needs a changed tree (an alias spliced
 * into a command) parses a copy of its own with `parseScript`.
 */
interface LineParses {
  readonly line: string;
  /** The line's own parse: kept apart, as a long line is a costly key to hash. */
  own: ParseResult | undefined;
  /** The parses of the scripts inside it, by their text. */
  readonly parses: Map<string, ParseResult>;
}

// A decision reads one line in up to three readers (guard, rules, protection), some from alias or trap bodies of their own.
const capacity = 4;
// Scripts kept per line: past it, a script is parsed again (a hostile line cannot make the store grow without end).
const maxScripts = 1_024;

// On the process, as `sharedAnalysis`'s store: the guard plugin runs its own copy of this package.
const storeKey = Symbol.for(`toolgate.shell.shared-parse@${readerVersion}`);
const lines: LineParses[] = ((globalThis as { [storeKey]?: LineParses[] })[storeKey] ??= []);

function entryOf(line: string): LineParses {
  for (let index = 0; index < lines.length; index++) {
    const entry = lines[index]!;
    if (entry.line !== line) continue;
    if (index > 0) {
      lines.splice(index, 1);
      lines.unshift(entry);
    }
    return entry;
  }
  const entry: LineParses = { line, own: undefined, parses: new Map() };
  lines.unshift(entry);
  if (lines.length > capacity) lines.length = capacity;
  return entry;
}

/** `parseScript(script)` for a script of `line` (the line itself included), parsed once for every reader of the line. Never change it. */
export function sharedParse(line: string, script: string): ParseResult {
  const entry = entryOf(line);
  if (script === line) return (entry.own ??= parseScript(script));
  const { parses } = entry;
  const known = parses.get(script);
  if (known !== undefined) return known;
  const parsed = parseScript(script);
  if (parses.size < maxScripts) parses.set(script, parsed);
  return parsed;
}
