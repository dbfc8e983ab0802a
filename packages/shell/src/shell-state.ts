import { expandText, maxVariants } from "./expansion.js";
import type { Lookup } from "./arithmetic.js";
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
  /**
   * The project's root, when the caller knows it: what `$(git rev-parse --show-toplevel)` prints from a folder
   * inside it (a repository above the project would be read as the project itself).
   */
  projectRoot?: string;
}

/** What the shell knows while it reads a line: its folder and the variables set so far. */
export interface ShellState {
  cwd: string | undefined;
  /** Variables set in the script: their possible values, or null when set from something unknowable. */
  vars: Map<string, readonly string[] | null>;
  /** False while `vars` is still shared with the state this one was copied from (copied on first write). */
  ownsVars: boolean;
  /** `NAME=value` of the variables exported so far (`export X=…`): every later command sees them. Replaced, never changed in place. */
  exported: readonly string[] | undefined;
  /**
   * Functions defined so far, each with every body it may have (two after `if c; then f() {…}; else f() {…}; fi`).
   * Replaced, never changed in place: a subshell's definitions stay in it.
   */
  functions: ReadonlyMap<string, readonly FunctionCommand[]> | undefined;
  /** Aliases defined so far (`alias x='…'`): every text each may stand for, or null when that cannot be known. Replaced, never changed in place. */
  aliases: ReadonlyMap<string, readonly string[] | null> | undefined;
}

/** A state with nothing set yet, starting in `cwd`. Every state has every field, so that they all share one shape. */
export function emptyState(cwd: string | undefined): ShellState {
  return { cwd, vars: new Map(), ownsVars: true, exported: undefined, functions: undefined, aliases: undefined };
}

export { maxVariants };

/** A subshell's state: its own folder, and the variables shared until it sets one (a new shell leaves the functions behind). */
export function copy(state: ShellState, withFunctions = true): ShellState {
  // Both now share the map: whichever writes first copies it, so a copy kept aside never changes under its keeper.
  state.ownsVars = false;
  return {
    cwd: state.cwd,
    vars: state.vars,
    ownsVars: false,
    exported: state.exported,
    functions: withFunctions ? state.functions : undefined,
    aliases: withFunctions ? state.aliases : undefined,
  };
}

/** Makes `target` hold what `source` holds (the state objects callers keep a reference to stay the same). */
export function replace(target: ShellState, source: ShellState): void {
  if (target === source) return;
  target.cwd = source.cwd;
  target.vars = source.vars;
  target.ownsVars = false;
  target.exported = source.exported;
  target.functions = source.functions;
  target.aliases = source.aliases;
}

/**
 * The state after one of several branches, when which one bash takes is not known: every variable holds each
 * value it may hold (null when one branch cannot know it), the folder is known only when all branches agree,
 * and each function and alias keeps every definition it may have. Every branching construct joins with this.
 */
export function join(states: readonly ShellState[], environment: AnalysisEnvironment): ShellState {
  const first = states[0]!;
  if (states.length === 1) return copy(first);
  const joined = copy(first);
  if (states.some((state) => state.cwd !== first.cwd)) joined.cwd = undefined;
  if (states.some((state) => state.vars !== first.vars)) joined.vars = joinVars(states, environment);
  joined.ownsVars = joined.vars !== first.vars;
  if (states.some((state) => state.exported !== first.exported)) {
    const exported = [...new Set(states.flatMap((state) => state.exported ?? []))];
    if (exported.length > 0) joined.exported = exported;
  }
  if (states.some((state) => state.functions !== first.functions)) {
    const functions = joinMaps(states.map((state) => state.functions));
    if (functions !== undefined) joined.functions = functions as ReadonlyMap<string, readonly FunctionCommand[]>;
  }
  if (states.some((state) => state.aliases !== first.aliases)) {
    const aliases = joinMaps(states.map((state) => state.aliases));
    if (aliases !== undefined) joined.aliases = aliases;
  }
  return joined;
}

function joinVars(states: readonly ShellState[], environment: AnalysisEnvironment): Map<string, readonly string[] | null> {
  const names = new Set<string>();
  for (const state of states) for (const name of state.vars.keys()) names.add(name);
  const vars = new Map<string, readonly string[] | null>();
  for (const name of names) {
    const values = new Set<string>();
    let known = true;
    for (const state of states) {
      // A branch that did not set the variable leaves what it held before: the environment's, often unknown.
      const held = state.vars.has(name) ? (state.vars.get(name) ?? undefined) : valuesOf(name, state, environment);
      if (held === undefined) known = false;
      // A variable set to no values at all reads as empty.
      else if (held.length === 0) values.add("");
      else for (const value of held) values.add(value);
    }
    vars.set(name, known && values.size <= maxVariants ? [...values] : null);
  }
  return vars;
}

/** Each name with every value any of the maps gives it (null, unknown, wins over values). */
function joinMaps<T>(maps: readonly (ReadonlyMap<string, readonly T[] | null> | undefined)[]): ReadonlyMap<string, readonly T[] | null> | undefined {
  // Most joins have no function or alias, or the same ones on every branch.
  if (maps.every((map) => map === maps[0])) return maps[0];
  const present = maps.filter((map) => map !== undefined);
  if (present.length === 0) return undefined;
  if (present.every((map) => map === present[0])) return present[0];
  const joined = new Map<string, T[] | null>();
  for (const map of present) {
    for (const [name, values] of map) {
      const before = joined.get(name);
      if (before === null) continue;
      if (values === null) joined.set(name, null);
      else joined.set(name, [...new Set([...(before ?? []), ...values])]);
    }
  }
  return joined;
}

/** Whether two states hold the same folder, variables, functions and aliases (a loop has read every value). */
export function sameState(a: ShellState, b: ShellState): boolean {
  if (a.cwd !== b.cwd || !sameMap(a.vars, b.vars) || !sameMap(a.functions, b.functions) || !sameMap(a.aliases, b.aliases)) return false;
  const left = a.exported ?? [];
  const right = b.exported ?? [];
  return left.length === right.length && left.every((entry, index) => entry === right[index]);
}

function sameMap<T>(a: ReadonlyMap<string, readonly T[] | null> | undefined, b: ReadonlyMap<string, readonly T[] | null> | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a.size !== b.size) return false;
  for (const [name, values] of a) {
    if (!b.has(name)) return false;
    const other = b.get(name)!;
    if (values === other) continue;
    if (values === null || other === null || values.length !== other.length) return false;
    const set = new Set(other);
    if (!values.every((value) => set.has(value))) return false;
  }
  return true;
}

/** `join`, but a variable whose values still differ becomes unknown and a differing folder unknown: a loop that never settles. */
export function widen(before: ShellState, after: ShellState, environment: AnalysisEnvironment): ShellState {
  const joined = join([before, after], environment);
  if (!joined.ownsVars) return joined;
  for (const [name, values] of joined.vars) {
    const old = before.vars.has(name) ? before.vars.get(name) : valuesOf(name, before, environment);
    if (values !== null && (old == null || old.length !== values.length)) joined.vars.set(name, null);
  }
  return joined;
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
  return expandText(text, { lookup: lookupIn(state, environment), cwd: state.cwd });
}

/**
 * `valuesOf` for one state, as a scope's lookup. Made here, not written in place as `lookup: (name) => …`:
 * a function in a named place is named at run time when built with names kept (tsx), a cost on every word.
 */
export function lookupIn(state: ShellState, environment: AnalysisEnvironment): Lookup {
  return (name) => valuesOf(name, state, environment);
}

/** Whether anything in a word's text expands: a `$`, a backtick, or a `~` that starts it. */
export function mayExpandText(text: string): boolean {
  return text.includes("$") || text.includes("`") || text.charCodeAt(0) === 126;
}

/** What a variable may hold: what the line set, or `$HOME`, `$PWD`, `$TMPDIR` and `$IFS`; undefined when unknown. */
export function valuesOf(name: string, state: ShellState, environment: AnalysisEnvironment): readonly string[] | undefined {
  // `"$*"` joins the arguments with the first character of IFS, kept here joined with a space.
  if (name === "*" && state.vars.has("IFS") && !joinsWithSpace(state.vars.get("IFS"))) return undefined;
  if (state.vars.has(name)) return state.vars.get(name) ?? undefined;
  if (name === "HOME") return [environment.home];
  if (name === "PWD") return state.cwd === undefined ? undefined : [state.cwd];
  if (name === "TMPDIR") return [environment.tmp];
  // The cleanup idiom (`trap 'rm -rf "$TMP"' EXIT`): a `$TMP` or `$TEMP` the line does not set is read as a
  // folder made in the temp folder, as `$(mktemp -d)` is. Like `$TMPDIR`, it is the agent's own variable.
  if (name === "TMP" || name === "TEMP") return [`${environment.tmp}/tmp.XXXXXXXXXX`];
  // bash sets IFS to space, tab and newline at start (an inherited IFS is ignored).
  if (name === "IFS") return [" \t\n"];
  return undefined;
}

function joinsWithSpace(ifs: readonly string[] | null | undefined): boolean {
  return ifs?.every((value) => value.startsWith(" ")) ?? false;
}

export function changeDirectory(cwd: string | undefined, args: readonly string[], environment: AnalysisEnvironment): string | undefined {
  const target = args.find((arg) => !arg.startsWith("-") || arg === "-");
  if (target === undefined) return environment.home;
  // `find ~ -exec sh -c 'cd "$1" && …' _ {} \;`: `{}` is one of find's results, only known when it runs.
  if (target === "-" || target.includes("$") || target.includes("`") || target.includes("{}") || isUnknown(target)) return undefined;
  const expanded = target === "~" || target.startsWith("~/") ? environment.home + target.slice(1) : target;
  if (expanded.startsWith("/")) return normalizePath(expanded);
  return cwd === undefined ? undefined : normalizePath(`${cwd}/${expanded}`);
}
