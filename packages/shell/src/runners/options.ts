/**
 * One option reader for every runner: short clusters (`-xzf a.tgz`), long options with `=` or the next
 * word as value, and GNU getopt_long's unambiguous abbreviations (`--checkpoint-act` is
 * `--checkpoint-action`). An option the grammar does not list is reported, never guessed past: what a
 * program does with an option nobody read is unknown.
 */

/** How an option takes its value: not at all, always (attached or the next word), or only attached (`-O'cmd'`, `--x=v`). */
export type Arity = "none" | "required" | "optional";

export interface OptionSpec {
  arity: Arity;
  /** What the option's value does when it runs something: read as a shell command, or unknown (a file, a config). */
  runs?: "shell" | "argv" | "unknown";
}

export interface Grammar {
  /** The program, for messages. */
  program: string;
  /** Single-letter options, by letter. */
  short?: Readonly<Record<string, OptionSpec>>;
  /** Long options, by name without dashes. */
  long?: Readonly<Record<string, OptionSpec>>;
  /** getopt_long: an unambiguous prefix of a long option counts as that option. */
  abbreviate?: boolean;
  /** getopt_long_only and find-style programs: `-name` is a long option too (tried before letters when `longOnly`). */
  singleDashLong?: "only" | "also";
  /** POSIX order: the first operand ends the options (wrappers, `ssh host cmd`). GNU programs read options anywhere. */
  stopAtOperand?: boolean;
}

export interface ReadOption {
  /** The option as the grammar names it: `-x` or `--long`. */
  name: string;
  value?: string;
  spec: OptionSpec;
  /** Where it is in the arguments. */
  at: number;
}

export interface ReadArguments {
  options: ReadOption[];
  operands: string[];
  /** The index of the first word after the options, when `stopAtOperand` (else the argument count). */
  end: number;
  problems: string[];
}

const flag: OptionSpec = { arity: "none" };
const valued: OptionSpec = { arity: "required" };

/** Short-hand for tables: letters that take no value, letters that take one. */
export function letters(flags: string, withValue = ""): Record<string, OptionSpec> {
  const table: Record<string, OptionSpec> = {};
  for (const letter of flags) table[letter] = flag;
  for (const letter of withValue) table[letter] = valued;
  return table;
}

/** Short-hand for tables: long names that take no value (space separated), names that take one. */
export function names(flags: string, withValue = "", optional = ""): Record<string, OptionSpec> {
  const table: Record<string, OptionSpec> = {};
  for (const name of flags.split(/\s+/).filter(Boolean)) table[name] = flag;
  for (const name of withValue.split(/\s+/).filter(Boolean)) table[name] = valued;
  for (const name of optional.split(/\s+/).filter(Boolean)) table[name] = { arity: "optional" };
  return table;
}

/** Resolves a long name: exact, else (with `abbreviate`) the one option it is a prefix of. */
export function resolveLong(grammar: Grammar, name: string): { name: string; spec: OptionSpec } | { problem: string } {
  const long = grammar.long ?? {};
  if (Object.hasOwn(long, name)) return { name, spec: long[name]! };
  if (grammar.abbreviate && name !== "") {
    const candidates = Object.keys(long).filter((candidate) => candidate.startsWith(name));
    if (candidates.length === 1) return { name: candidates[0]!, spec: long[candidates[0]!]! };
    // glibc accepts an ambiguous prefix when every candidate is the same option; the tables never list synonyms as such, so refuse.
    if (candidates.length > 1) return { problem: `${grammar.program}: the option --${name} is ambiguous (${candidates.map((c) => `--${c}`).join(", ")})` };
  }
  return { problem: unread(grammar.program, `--${name}`) };
}

export function unread(program: string, option: string): string {
  return `${program}: the option ${option} is not one this reader has read, so what ${program} does with it is unknown`;
}

/** Reads `args` with a grammar: the options found (values attached), the operands, and what could not be read. */
export function readArguments(args: readonly string[], grammar: Grammar): ReadArguments {
  const options: ReadOption[] = [];
  const operands: string[] = [];
  const problems: string[] = [];
  let index = 0;
  for (; index < args.length; index++) {
    const arg = args[index]!;
    if (arg === "--") {
      if (!grammar.stopAtOperand) operands.push(...args.slice(index + 1));
      index++;
      break;
    }
    if (arg.length < 2 || arg[0] !== "-") {
      if (grammar.stopAtOperand) break;
      operands.push(arg);
      continue;
    }
    const isLong = arg.startsWith("--") || (grammar.singleDashLong !== undefined && longFirst(grammar, arg));
    if (isLong) {
      const body = arg.slice(arg.startsWith("--") ? 2 : 1);
      const equals = body.indexOf("=");
      const name = equals === -1 ? body : body.slice(0, equals);
      const resolved = resolveLong(grammar, name);
      if ("problem" in resolved) {
        problems.push(resolved.problem);
        continue;
      }
      const { spec } = resolved;
      const option: ReadOption = { name: `--${resolved.name}`, spec, at: index };
      if (equals !== -1) {
        if (spec.arity === "none") problems.push(`${grammar.program}: the option --${resolved.name} takes no value (given ${arg})`);
        option.value = body.slice(equals + 1);
      } else if (spec.arity === "required") {
        if (index + 1 >= args.length) problems.push(`${grammar.program}: the option --${resolved.name} needs a value`);
        else option.value = args[++index]!;
      }
      options.push(option);
      continue;
    }
    // A cluster of letters: a letter that takes a value takes the rest of the word, or the next word.
    for (let at = 1; at < arg.length; at++) {
      const letter = arg[at]!;
      const spec = grammar.short?.[letter];
      if (spec === undefined) {
        problems.push(unread(grammar.program, `-${letter}${at > 1 ? ` (in ${arg})` : ""}`));
        break;
      }
      const option: ReadOption = { name: `-${letter}`, spec, at: index };
      options.push(option);
      if (spec.arity === "none") continue;
      const rest = arg.slice(at + 1);
      if (rest !== "") option.value = rest;
      else if (spec.arity === "required") {
        if (index + 1 >= args.length) problems.push(`${grammar.program}: the option -${letter} needs a value`);
        else option.value = args[++index]!;
      }
      break;
    }
  }
  return { options, operands, end: index, problems };
}

/** With single-dash long options: whether `-word` is read as a long option. */
function longFirst(grammar: Grammar, arg: string): boolean {
  if (grammar.singleDashLong === "also") return true;
  // getopt_long_only: a long option when it names (or, abbreviating, starts) one; else letters.
  const body = arg.slice(1).split("=")[0]!;
  const long = grammar.long ?? {};
  if (Object.hasOwn(long, body)) return true;
  if (body.length === 1 && grammar.short?.[body] !== undefined) return false;
  return grammar.abbreviate === true && Object.keys(long).some((name) => name.startsWith(body));
}
