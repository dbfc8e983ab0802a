/**
 * A program whose last word leaves a quote or substitution open at the end of the text. Bash reads a
 * program one complete command at a time and runs each as soon as it has read it at a newline, then fails
 * on the open one: `echo hi<newline>echo 'x` prints `hi`; `echo hi; echo 'x` runs nothing. So what bash
 * runs is part of what the line says up to the open word, and that is read as any line, with the open word
 * running to the end of the text as the agent wrote it. What the agent meant by the rest may still refuse
 * the line (`rm -rf ~ 'x` is refused though bash would run nothing), never allow it: only the open quote
 * itself is no reason to refuse. Any other problem, and any text the lexer read only approximately, is.
 */
import { parseScript, type ParseResult } from "./parse.js";

/** Parses a whole program (the agent's line): a quote left open at its end is no problem by itself. */
export function parseProgram(source: string): ParseResult {
  const parsed = parseScript(source);
  return parsed.openAtEnd === true ? { script: parsed.script } : parsed;
}
