import { builtinOptionProblems, runsOrRebinds } from "./builtin-options.js";
import { arithmeticAssigned, operandProblem, type Lookup } from "./arithmetic.js";
import { expandText, type ExpansionScope } from "./expansion.js";
import { closingIndex } from "./lex.js";
import { isUnknown, unknownText } from "./unknown.js";

/**
 * Expansions that run code kept in data: `${x@P}` (prompt expansion runs the `$(…)` in x's value) and
 * arithmetic (`$((x))`, `$[x]`, `${a[i]}`, `${x:n}`, `a[i]=`, `((…))`, `let`, `[[ x -eq y ]]`, `declare -i`),
 * where bash reads a variable's value as an expression and an array subscript in it runs `$(…)`.
 * Each finding is a problem: the reader cannot tell what such a line runs.
 */

/** Problems in one word as written (its `expandable` form), and the variables `${x:=…}` may set. */
export function wordExpansionProblems(text: string, scope: ExpansionScope): { problems: string[]; assigned: string[] } {
  const found = { problems: [] as string[], assigned: [] as string[] };
  if (text.includes("$")) scanWord(text, scope, found, 0);
  const subscript = /^[A-Za-z_][A-Za-z0-9_]*\[(.*?)\]\+?=/s.exec(text);
  if (subscript !== null) arithmeticProblem(subscript[1]!, scope, found.problems);
  return found;
}

type Found = { problems: string[]; assigned: string[] };

function scanWord(text: string, scope: ExpansionScope, found: Found, depth: number): void {
  if (depth > 16) {
    found.problems.push("expansions are nested too deep to read");
    return;
  }
  let i = text.indexOf("$");
  while (i !== -1 && i < text.length) {
    const next = text[i + 1];
    if (next === "(" && text[i + 2] === "(") {
      const end = closingIndex(text, i + 2, "paren");
      arithmeticProblem(text.slice(i + 3, end - 2), scope, found.problems);
      found.assigned.push(...arithmeticAssigned(text.slice(i + 3, end - 2)));
      scanWord(text.slice(i + 3, end - 2), scope, found, depth + 1);
      i = end;
    } else if (next === "(") {
      i = closingIndex(text, i + 2, "paren"); // a command substitution: read as a script of its own
    } else if (next === "[") {
      const end = text.indexOf("]", i + 2);
      if (end === -1) break;
      arithmeticProblem(text.slice(i + 2, end), scope, found.problems);
      found.assigned.push(...arithmeticAssigned(text.slice(i + 2, end)));
      i = end + 1;
    } else if (next === "{") {
      const end = closingIndex(text, i + 2, "brace");
      scanBraced(text.slice(i + 2, end - 1), scope, found, depth);
      i = end;
    } else i++;
    i = text.indexOf("$", i);
  }
}

function scanBraced(inner: string, scope: ExpansionScope, found: Found, depth: number): void {
  const match = /^[!#]?([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])(\[[^\]]*\])?(.*)$/s.exec(inner);
  if (match === null) return;
  const [, name, subscript, rest] = match as unknown as [string, string, string | undefined, string];
  if (subscript !== undefined && !/^\[[@*]\]$/.test(subscript)) arithmeticProblem(subscript.slice(1, -1), scope, found.problems);
  if (/^@[A-Za-z]/.test(rest) && rest.includes("P")) found.problems.push(`\${${name}@P} expands ${name}'s value as a prompt, which runs the commands in it`);
  const operator = /^:?[-=+?]/.exec(rest)?.[0];
  if (operator !== undefined) {
    if (operator.endsWith("=")) found.assigned.push(name);
    scanWord(rest.slice(operator.length), scope, found, depth + 1);
  } else if (rest.startsWith(":")) {
    // `${x:offset:length}`: both are arithmetic.
    for (const part of rest.slice(1).split(":")) arithmeticProblem(part, scope, found.problems);
  } else if (rest !== "") scanWord(rest, scope, found, depth + 1);
}

/** An arithmetic expression as written: expanded first (as bash does), then its operands checked. */
function arithmeticProblem(expression: string, scope: ExpansionScope, problems: string[]): void {
  const variants = expandText(expression, scope);
  if (variants === undefined) {
    problems.push(`the arithmetic ${shown(expression)} takes too many values to check`);
    return;
  }
  for (const variant of variants) {
    if (isUnknown(variant)) {
      problems.push(`the arithmetic ${shown(expression)} holds a value that is not known here, and bash evaluates it as code`);
      return;
    }
    const problem = operandProblem(variant, scope.lookup);
    if (problem !== undefined) {
      problems.push(problem);
      return;
    }
  }
}

/** An expression for a message: quoted, the run-time parts marked, long ones cut. */
function shown(expression: string): string {
  const text = expression.replaceAll(unknownText, "⟨unknown⟩").trim();
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 57)}…` : text);
}

// Builtins that take variable names, where `a[i]` evaluates i.
const takesNames = new Set([
  "printf",
  "read",
  "declare",
  "typeset",
  "local",
  "export",
  "readonly",
  "mapfile",
  "readarray",
  "unset",
  "test",
  "[",
  "[[",
  "getopts",
  "wait",
]);
const arithmeticTests = new Set(["-eq", "-ne", "-lt", "-le", "-gt", "-ge"]);
// `set` options that leave parsing and expansion as this reader models them.
const harmlessSetLetters = /^[euxvETCh]*$/;
const harmlessSetNames = new Set(["errexit", "nounset", "xtrace", "verbose", "pipefail", "errtrace", "functrace", "noclobber", "hashall"]);
const harmlessShopt = new Set(["checkwinsize", "histappend", "inherit_errexit", "lastpipe", "cmdhist", "lithist"]);

/** The variables `let` and `((…))` assign: unknown after them. */
export function commandAssigned(name: string, args: readonly string[]): string[] {
  if (name === "((") return arithmeticAssigned(args[0] ?? "");
  if (name === "for" && args[0] === "((") return arithmeticAssigned(args[1] ?? "");
  return name === "let" ? args.flatMap(arithmeticAssigned) : [];
}

/**
 * Problems with a command's words once expanded: the commands that evaluate arithmetic (`((…))`, `let`,
 * `[[ a -eq b ]]`, `declare -i`), name references (`declare -n`), and `set`/`shopt` calls that change how
 * bash reads or expands the text after them.
 */
export function commandProblems(name: string, args: readonly string[], scope: ExpansionScope): string[] {
  const problems: string[] = [];
  // `printf -v 'a[$(cmd)]' x`, `read 'a[…]'`, `declare 'a[…]=1'`, `test -v 'a[…]'`: the subscript is arithmetic.
  if (takesNames.has(name)) {
    const named = name !== "printf" ? args : args[0] === "-v" ? args.slice(1, 2) : [];
    for (const arg of named) {
      const subscript = /^[A-Za-z_][A-Za-z0-9_]*\[(.*)\]/s.exec(arg);
      if (subscript !== null && !/^[@*]$/.test(subscript[1]!)) arithmeticProblem(subscript[1]!, scope, problems);
    }
  }
  if (name === "for" && args[0] === "((") {
    // A name the loop assigns holds an integer from then on: arithmetic stores nothing else.
    const assigned = new Set(arithmeticAssigned(args[1] ?? ""));
    const lookup: Lookup = (variable) => (assigned.has(variable) ? ["0"] : scope.lookup(variable));
    for (const part of (args[1] ?? "").split(";")) arithmeticProblem(part, { ...scope, lookup }, problems);
  } else if (name === "((" || name === "let") {
    for (const arg of name === "((" ? args.slice(0, 1) : args) arithmeticProblem(arg, scope, problems);
  } else if (name === "[[") {
    for (let index = 0; index < args.length; index++) {
      if (!arithmeticTests.has(args[index]!)) continue;
      arithmeticProblem(args[index - 1] ?? "", scope, problems);
      arithmeticProblem(args[index + 1] ?? "", scope, problems);
    }
  } else if (name === "declare" || name === "typeset" || name === "local" || name === "readonly" || name === "export") {
    const options = args.filter((arg) => /^[-+][A-Za-z]+$/.test(arg)).join("");
    if (options.includes("i")) problems.push(`${name} -i makes later assignments arithmetic, which bash evaluates as code`);
    if (options.includes("n")) problems.push(`${name} -n makes a name reference, which this reader does not follow`);
  } else if (name === "set") {
    for (let index = 0; index < args.length && args[index] !== "--"; index++) {
      const arg = args[index]!;
      if (!/^[-+]/.test(arg)) break;
      const letters = arg.slice(1);
      const option = letters.endsWith("o") ? args[++index] : undefined;
      if (!harmlessSetLetters.test(letters.replace(/o$/, "")) || (option !== undefined && !harmlessSetNames.has(option)))
        problems.push(`set ${arg}${option === undefined ? "" : ` ${option}`} changes how bash reads or expands the commands after it`);
    }
  } else if (runsOrRebinds.has(name)) {
    problems.push(...builtinOptionProblems(name, args));
  } else if (name === "shopt") {
    const options = args.filter((arg) => !arg.startsWith("-"));
    const changes = args.some((arg) => /^-[A-Za-z]*[su]/.test(arg));
    const unsafe = options.filter((option) => !harmlessShopt.has(option));
    if (changes && unsafe.length > 0) problems.push(`shopt ${unsafe.join(" ")} changes how bash reads or expands the commands after it`);
  }
  return problems;
}
