import { expandText } from "./expansion.js";
import { normalizePath } from "./normalize-path.js";
import { fromLiteral } from "./quoted.js";
import { isUnknown } from "./unknown.js";
import type { FunctionCommand } from "./parse.js";

/** Where a command line starts and what `~`, `$HOME` and `$TMPDIR` stand for. */
export interface AnalysisEnvironment {
  /** The folder the command starts in (absolute). */
  cwd: string;
  home: string;
  tmp: string;
}

/** What the shell knows while it reads a line: its folder and the variables set so far. */
export interface ShellState {
  cwd: string | undefined;
  /** Variables set in the script: their possible values, or null when set from something unknowable. */
  vars: Map<string, readonly string[] | null>;
  /** False while `vars` is still shared with the state this one was copied from (copied on first write). */
  ownsVars: boolean;
  /** `NAME=value` of the variables exported so far (`export X=…`): every later command sees them. Replaced, never changed in place. */
  exported?: readonly string[];
  /** Functions defined so far (replaced, never changed in place: a subshell's definitions stay in it). */
  functions?: ReadonlyMap<string, FunctionCommand>;
}

export { maxVariants } from "./expansion.js";

/** A subshell's state: its own folder, and the variables shared until it sets one (a new shell leaves the functions behind). */
export function copy(state: ShellState, withFunctions = true): ShellState {
  const copied: ShellState = { cwd: state.cwd, vars: state.vars, ownsVars: false };
  if (state.functions !== undefined && withFunctions) copied.functions = state.functions;
  if (state.exported !== undefined) copied.exported = state.exported;
  return copied;
}

export function setVar(state: ShellState, name: string, value: readonly string[] | null): void {
  if (!state.ownsVars) {
    state.vars = new Map(state.vars);
    state.ownsVars = true;
  }
  state.vars.set(name, value);
}

export function assign(word: string, state: ShellState, environment: AnalysisEnvironment): void {
  const equals = word.indexOf("=");
  const name = word.slice(0, equals).replace(/\+$/, "");
  const value = word.slice(equals + 1);
  setVar(state, name, /\$\((?!\()|`/.test(value) ? null : (expand(value, state, environment) ?? null));
}

/**
 * `NAME=value` before a command (`TMPDIR=/Users rm -rf $TMPDIR/x`): bash expands the old value in the words,
 * the command sees the new one. Neither is trusted over the other: the variable may hold either.
 */
export function assignBoth(word: string, state: ShellState, environment: AnalysisEnvironment): void {
  const equals = word.indexOf("=");
  const name = word.slice(0, equals).replace(/\+$/, "");
  const value = word.slice(equals + 1);
  const before = valuesOf(name, state, environment);
  const after = /\$\((?!\()|`/.test(value) ? undefined : expand(value, state, environment);
  setVar(state, name, before === undefined || after === undefined ? null : [...new Set([...before, ...after])]);
}

/** `set -- a b c` (or `set a b c`): the positional parameters `$1`…, `$@`, `$*` and `$#`. */
export function setPositional(state: ShellState, args: readonly string[]): void {
  const previous = state.vars.get("#");
  const before = previous?.length === 1 ? Number(previous[0]) : 9;
  for (let index = 0; index < Math.max(args.length, before); index++) setVar(state, String(index + 1), index < args.length ? [args[index]!] : [""]);
  setVar(state, "@", [args.join(" ")]);
  setVar(state, "*", [args.join(" ")]);
  setVar(state, "#", [String(args.length)]);
}

/**
 * A word's possible values: the variables, arithmetic and tildes bash's result is sure for replaced, and
 * every part that is only known at run time replaced by `unknownText` (see `expandText`). Undefined when a
 * variable has more values than can be checked one by one.
 */
export function expand(text: string, state: ShellState, environment: AnalysisEnvironment): readonly string[] | undefined {
  if (!mayExpandText(text)) return [fromLiteral(text)];
  return expandText(text, { lookup: (name) => valuesOf(name, state, environment), cwd: state.cwd });
}

/** Whether anything in a word's text expands: a `$`, a backtick, or a `~` that starts it. */
export function mayExpandText(text: string): boolean {
  return text.includes("$") || text.includes("`") || text.charCodeAt(0) === 126;
}

/** What a variable may hold: what the line set, or `$HOME`, `$PWD`, `$TMPDIR` and `$IFS`; undefined when unknown. */
export function valuesOf(name: string, state: ShellState, environment: AnalysisEnvironment): readonly string[] | undefined {
  if (state.vars.has(name)) return state.vars.get(name) ?? undefined;
  if (name === "HOME") return [environment.home];
  if (name === "PWD") return state.cwd === undefined ? undefined : [state.cwd];
  if (name === "TMPDIR") return [environment.tmp];
  // bash sets IFS to space, tab and newline at start (an inherited IFS is ignored).
  if (name === "IFS") return [" \t\n"];
  return undefined;
}

export function changeDirectory(cwd: string | undefined, args: readonly string[], environment: AnalysisEnvironment): string | undefined {
  const target = args.find((arg) => !arg.startsWith("-") || arg === "-");
  if (target === undefined) return environment.home;
  if (target === "-" || target.includes("$") || target.includes("`") || isUnknown(target)) return undefined;
  const expanded = target === "~" || target.startsWith("~/") ? environment.home + target.slice(1) : target;
  if (expanded.startsWith("/")) return normalizePath(expanded);
  return cwd === undefined ? undefined : normalizePath(`${cwd}/${expanded}`);
}
