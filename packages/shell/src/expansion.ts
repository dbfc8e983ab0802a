import { evaluateArithmetic, type Lookup } from "./arithmetic.js";
import { closingIndex, operandWord } from "./lex.js";
import { fromLiteral } from "./quoted.js";
import { unknownText } from "./unknown.js";

/**
 * Parameter, arithmetic and tilde expansion of one word's text, as bash does it where the reader is sure
 * of the result; every part it cannot compute (an unknown variable, an operator it does not model, a
 * command's output, `$RANDOM`, `~user`) becomes `unknownText`, never a guess.
 */

export interface ExpansionScope {
  lookup: Lookup;
  /** The shell's folder, for `~+`; undefined when not known. (`~` and `~/x` stay as written: the path checks know the home folder.) */
  cwd: string | undefined;
}

/** Past this many values, a word is not expanded value by value. */
export const maxVariants = 64;
const maxExpandedLength = 4_096;
const maxOperandDepth = 16;

// Variables bash changes by itself: whatever the line set, their value is not known in advance.
const dynamicNames = new Set(["RANDOM", "SRANDOM", "SECONDS", "LINENO", "BASHPID", "EPOCHSECONDS", "EPOCHREALTIME", "BASH_COMMAND", "PPID", "OLDPWD"]);
const unknownOnly: readonly string[] = [unknownText];

/** The text's possible values; undefined when there are more than `maxVariants`. */
export function expandText(text: string, scope: ExpansionScope): readonly string[] | undefined {
  const values = expandPieces(text, scope, 0);
  return values?.map(fromLiteral);
}

function expandPieces(text: string, scope: ExpansionScope, depth: number): readonly string[] | undefined {
  if (text.length > maxExpandedLength) return unknownOnly;
  const pieces: (readonly string[])[] = [];
  let literal = "";
  let i = 0;
  // Not a closure: a function made on every call costs more than the few lines it saves (and, built
  // with names kept, as tsx does, each one also costs a call that names it).
  if (text.charCodeAt(0) === 126) {
    const tilde = tildePrefix(text, scope);
    if (tilde !== undefined) {
      pieces.push([literal], tilde.values);
      literal = "";
      i = tilde.end;
    }
  }
  while (i < text.length) {
    const char = text[i]!;
    if (char === "`") {
      const end = closingIndex(text, i + 1, "backtick");
      pieces.push([literal], unknownOnly);
      literal = "";
      i = end;
    } else if (char === "$") {
      const next = text[i + 1];
      if (next === "(" && text[i + 2] === "(") {
        const end = closingIndex(text, i + 2, "paren");
        pieces.push([literal], arithmetic(text.slice(i + 3, end - 2), scope, depth));
        literal = "";
        i = end;
      } else if (next === "(") {
        pieces.push([literal], unknownOnly);
        literal = "";
        i = closingIndex(text, i + 2, "paren");
      } else if (next === "[") {
        const end = text.indexOf("]", i + 2);
        pieces.push([literal], end === -1 ? unknownOnly : arithmetic(text.slice(i + 2, end), scope, depth));
        literal = "";
        i = end === -1 ? text.length : end + 1;
      } else if (next === "{") {
        const end = closingIndex(text, i + 2, "brace");
        const values = braced(text.slice(i + 2, end - 1), scope, depth);
        if (values === undefined) return undefined;
        pieces.push([literal], values);
        literal = "";
        i = end;
      } else {
        const name = /^(?:[A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])/.exec(text.slice(i + 1, i + 256))?.[0];
        if (name === undefined) {
          literal += "$";
          i++;
        } else {
          pieces.push([literal], variable(name, scope));
          literal = "";
          i += 1 + name.length;
        }
      }
    } else {
      // The run up to the next backtick or `$`, in one piece (not a string per character).
      let end = i + 1;
      while (end < text.length && text.charCodeAt(end) !== 36 && text.charCodeAt(end) !== 96) end++;
      literal += text.slice(i, end);
      i = end;
    }
  }
  pieces.push([literal]);
  return combine(pieces);
}

/** One value per variant: the k-th value of each piece together (values are paired, not multiplied). */
function combine(pieces: readonly (readonly string[])[]): readonly string[] | undefined {
  let count = 1;
  for (const values of pieces) if (values.length > count) count = values.length;
  if (count > maxVariants) return undefined;
  const variants: string[] = [];
  for (let index = 0; index < count; index++) {
    let variant = "";
    // A variable set to no values at all (`for x in; do`) reads as empty.
    for (const values of pieces) variant += values[index % Math.max(values.length, 1)] ?? "";
    // `X=$X$X` repeated doubles X each time: past a size, the value is unknown.
    variants.push(variant.length > maxExpandedLength ? unknownText : variant);
  }
  return variants;
}

function variable(name: string, scope: ExpansionScope): readonly string[] {
  if (dynamicNames.has(name) || name === "?" || name === "$" || name === "!" || name === "-") return unknownOnly;
  return scope.lookup(name) ?? unknownOnly;
}

/** `~`, `~/x`: left for the path checks (they know the home folder); `~+` is the folder; `~-`, `~user`: unknown. */
function tildePrefix(text: string, scope: ExpansionScope): { values: readonly string[]; end: number } | undefined {
  const slash = text.indexOf("/");
  const prefix = text.slice(1, slash === -1 ? text.length : slash);
  if (prefix === "") return undefined;
  if (prefix === "+") return { values: scope.cwd === undefined ? unknownOnly : [scope.cwd], end: 2 };
  if (prefix === "-") return { values: scope.lookup("OLDPWD") ?? unknownOnly, end: 2 };
  // `~user`, `~+1`, `~2`: another user's home, the directory stack.
  if (/^[\w.+-]+$/.test(prefix)) return { values: unknownOnly, end: 1 + prefix.length };
  return undefined;
}

function arithmetic(expression: string, scope: ExpansionScope, depth: number): readonly string[] {
  if (depth >= maxOperandDepth) return unknownOnly;
  const expanded = expandPieces(expression, scope, depth + 1);
  if (expanded === undefined) return unknownOnly;
  return expanded.map((variant) => evaluateArithmetic(fromLiteral(variant), scope.lookup) ?? unknownText);
}

const parameter = /^([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])(.*)$/s;

/** `${…}`: the forms bash's value is sure for; any other operator (`@P`, `/`, `#`, `:1`, `[i]`, `!x`) is unknown. */
function braced(inner: string, scope: ExpansionScope, depth: number): readonly string[] | undefined {
  if (inner.startsWith("#") && inner.length > 1) {
    const values = /^[A-Za-z_][A-Za-z0-9_]*$/.test(inner.slice(1)) ? scope.lookup(inner.slice(1)) : undefined;
    return values === undefined || dynamicNames.has(inner.slice(1)) ? unknownOnly : values.map((value) => String([...value].length));
  }
  const match = parameter.exec(inner);
  if (match === null) return unknownOnly;
  const [, name, rest] = match as unknown as [string, string, string];
  const values = variable(name, scope);
  if (rest === "") return values;
  const operator = /^(:?[-=+?])/.exec(rest)?.[1];
  if (operator === undefined) return unknownOnly;
  const known = values === unknownOnly ? undefined : values;
  const operand = depth >= maxOperandDepth ? unknownOnly : expandOperand(rest.slice(operator.length), scope, depth + 1);
  if (operand === undefined) return undefined;
  const colon = operator.startsWith(":");
  const kind = operator.at(-1)!;
  if (known === undefined) return kind === "?" ? unknownOnly : [...new Set([unknownText, ...operand, ...(kind === "+" ? [""] : [])])];
  const out: string[] = [];
  for (const value of known) {
    // `unset X` is recorded as empty: without `:`, an empty value may be unset too, so both are read.
    if (kind === "+") out.push(...(value !== "" ? operand : colon ? [""] : ["", ...operand]));
    else if (kind === "?") out.push(value === "" ? unknownText : value);
    else out.push(...(value !== "" ? [value] : colon ? operand : [value, ...operand]));
  }
  return [...new Set(out)];
}

/** The word after `${x:-`: quotes removed, expanded in turn. */
function expandOperand(raw: string, scope: ExpansionScope, depth: number): readonly string[] | undefined {
  if (!/['"\\$`~]/.test(raw)) return [raw];
  const word = operandWord(raw);
  return expandPieces(word.expandable ?? word.text, scope, depth);
}
