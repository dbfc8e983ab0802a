/**
 * What bash runs of a program whose last command leaves a quote or substitution open at the end of the text.
 * Bash reads a program one complete command at a time and runs each as soon as it has read it at a newline:
 * `echo hi<newline>echo 'x` prints `hi`, then fails on the open quote; `echo hi; echo 'x` runs nothing (the
 * whole line fails to parse). So the commands that run are those of the longest prefix ending at a top-level
 * newline that is complete (no group, `if`, loop, `case` or heredoc still open there); the rest runs nothing.
 * Every other problem, and any text the lexer read only approximately, keeps the whole text refused.
 */
import { readFlow } from "./control-flow.js";
import { lex } from "./lex.js";
import { parseScript, type ParseResult } from "./parse.js";

// Prefixes tried, latest newline first: past these the text is refused rather than lexed again and again.
const maxCuts = 16;

/** Parses a whole program (the agent's line): only what bash runs before an open quote at the end is read. */
export function parseProgram(source: string): ParseResult {
  const parsed = parseScript(source);
  if (parsed.openAtEnd === undefined) return parsed;
  const prefix = runnablePrefix(source, parsed.openAtEnd.cuts);
  return prefix === undefined ? parsed : parseScript(prefix);
}

/** The longest complete prefix ending at one of `cuts`; "" when none is; undefined when too many were tried. */
function runnablePrefix(source: string, cuts: readonly number[]): string | undefined {
  for (let index = cuts.length - 1; index >= 0; index--) {
    if (cuts.length - index > maxCuts) return undefined;
    const prefix = source.slice(0, cuts[index]);
    const parsed = parseScript(prefix);
    if (parsed.problem === undefined && readFlow(parsed.script).problem === undefined && !continues(prefix)) return prefix;
  }
  return "";
}

// Operators after which bash reads on past the newline: `a |<newline>b` is one pipeline.
const continuing = new Set(["|", "|&", "&&", "||"]);

/** Whether the text ends in an operator whose command is on the next line (the parser reads it as empty). */
function continues(prefix: string): boolean {
  const { tokens } = lex(prefix);
  let at = tokens.length - 1;
  while (at >= 0 && tokens[at]!.kind === "operator" && (tokens[at] as { value: string }).value === "\n") at--;
  const last = tokens[at];
  return last?.kind === "operator" && continuing.has(last.value);
}
