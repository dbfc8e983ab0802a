/**
 * Bash arithmetic (`$((…))`, `$[…]`, `((…))`, `let`), evaluated only where the reader is sure of the
 * result: integer literals, the usual operators, and variables whose value is a known integer. Anything
 * else (an assignment, `++`, a base (`2#101`), an unknown or non-numeric variable, a division by zero) is
 * undefined: the caller says "unknown". Bash evaluates a variable's text as an expression in turn, and an
 * array subscript there runs `$(…)`: `operandProblem` names the operands that could hold such code.
 */

/** The values a variable may hold, or undefined when it is not known. */
export type Lookup = (name: string) => readonly string[] | undefined;

type Token = { kind: "number"; value: bigint } | { kind: "name"; name: string } | { kind: "op"; op: string };

const operators = ["**", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+", "-", "*", "/", "%", "<", ">", "&", "^", "|", "!", "~", "?", ":", "(", ")", ","];
const assignments = /\+\+|--|(?:\*\*|<<|>>|[-+*/%&^|])?=(?!=)/;
const integerLiteral = /^-?(?:0|[1-9][0-9]*)$/;

function tokenize(expression: string): Token[] | undefined {
  if (assignments.test(expression.replace(/[<>!=]=/g, ""))) return undefined;
  const tokens: Token[] = [];
  let i = 0;
  while (i < expression.length) {
    const char = expression[i]!;
    if (char === " " || char === "\t" || char === "\n") {
      i++;
      continue;
    }
    const number = /^(?:0[xX][0-9a-fA-F]+|[0-9]+)/.exec(expression.slice(i, i + 64));
    if (number !== null) {
      const text = number[0];
      const after = expression[i + text.length];
      if (after !== undefined && /[\w#@]/.test(after)) return undefined; // `2#101`, `08x`
      if (/^0[0-7]+$/.test(text)) tokens.push({ kind: "number", value: BigInt(`0o${text.slice(1)}`) });
      else if (/^0[0-9]+$/.test(text))
        return undefined; // `08`: bash refuses it
      else tokens.push({ kind: "number", value: BigInt(text) });
      i += text.length;
      continue;
    }
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(expression.slice(i, i + 256));
    if (name !== null) {
      if (expression[i + name[0].length] === "[") return undefined; // an array element: its subscript is code
      tokens.push({ kind: "name", name: name[0] });
      i += name[0].length;
      continue;
    }
    const op = operators.find((candidate) => expression.startsWith(candidate, i));
    if (op === undefined) return undefined;
    tokens.push({ kind: "op", op });
    i += op.length;
  }
  return tokens;
}

// Binary operators, loosest first.
const levels: readonly (readonly string[])[] = [
  ["||"],
  ["&&"],
  ["|"],
  ["^"],
  ["&"],
  ["==", "!="],
  ["<", ">", "<=", ">="],
  ["<<", ">>"],
  ["+", "-"],
  ["*", "/", "%"],
];
const int64 = (value: bigint) => BigInt.asIntN(64, value);

class Evaluator {
  position = 0;
  depth = 0;
  constructor(
    readonly tokens: Token[],
    readonly lookup: Lookup,
  ) {}

  peekOp(): string | undefined {
    const token = this.tokens[this.position];
    return token?.kind === "op" ? token.op : undefined;
  }

  comma(): bigint | undefined {
    let value = this.ternary();
    while (value !== undefined && this.peekOp() === ",") {
      this.position++;
      value = this.ternary();
    }
    return value;
  }

  ternary(): bigint | undefined {
    const condition = this.binary(0);
    if (condition === undefined || this.peekOp() !== "?") return condition;
    this.position++;
    const yes = this.comma();
    if (this.peekOp() !== ":") return undefined;
    this.position++;
    const no = this.ternary();
    return yes === undefined || no === undefined ? undefined : condition !== 0n ? yes : no;
  }

  binary(level: number): bigint | undefined {
    if (level >= levels.length) return this.power();
    let left = this.binary(level + 1);
    for (let op = this.peekOp(); left !== undefined && op !== undefined && levels[level]!.includes(op); op = this.peekOp()) {
      this.position++;
      const right = this.binary(level + 1);
      if (right === undefined) return undefined;
      left = apply(op, left, right);
    }
    return left;
  }

  power(): bigint | undefined {
    const base = this.unary();
    if (base === undefined || this.peekOp() !== "**") return base;
    this.position++;
    const exponent = this.power();
    if (exponent === undefined || exponent < 0n || exponent > 64n) return undefined;
    return int64(base ** exponent);
  }

  unary(): bigint | undefined {
    const op = this.peekOp();
    if (op === "-" || op === "+" || op === "!" || op === "~") {
      this.position++;
      if (++this.depth > 64) return undefined;
      const value = this.unary();
      this.depth--;
      if (value === undefined) return undefined;
      return op === "-" ? int64(-value) : op === "+" ? value : op === "!" ? (value === 0n ? 1n : 0n) : int64(~value);
    }
    return this.primary();
  }

  primary(): bigint | undefined {
    const token = this.tokens[this.position++];
    if (token === undefined) return undefined;
    if (token.kind === "number") return int64(token.value);
    if (token.kind === "name") return knownInteger(this.lookup(token.name));
    if (token.op !== "(" || ++this.depth > 64) return undefined;
    const value = this.comma();
    this.depth--;
    if (this.peekOp() !== ")") return undefined;
    this.position++;
    return value;
  }
}

function apply(op: string, left: bigint, right: bigint): bigint | undefined {
  const truth = (value: boolean) => (value ? 1n : 0n);
  switch (op) {
    case "||":
      return truth(left !== 0n || right !== 0n);
    case "&&":
      return truth(left !== 0n && right !== 0n);
    case "|":
      return left | right;
    case "^":
      return left ^ right;
    case "&":
      return left & right;
    case "==":
      return truth(left === right);
    case "!=":
      return truth(left !== right);
    case "<":
      return truth(left < right);
    case ">":
      return truth(left > right);
    case "<=":
      return truth(left <= right);
    case ">=":
      return truth(left >= right);
    case "<<":
      return right < 0n || right > 63n ? undefined : int64(left << right);
    case ">>":
      return right < 0n || right > 63n ? undefined : left >> right;
    case "+":
      return int64(left + right);
    case "-":
      return int64(left - right);
    case "*":
      return int64(left * right);
    case "/":
      return right === 0n ? undefined : int64(left / right);
    case "%":
      return right === 0n ? undefined : int64(left % right);
    default:
      return undefined;
  }
}

/** A variable's value as an operand: only a single known decimal integer (or empty, which is 0). */
function knownInteger(values: readonly string[] | undefined): bigint | undefined {
  if (values === undefined || values.length !== 1) return undefined;
  const value = values[0]!.trim();
  if (value === "") return 0n;
  return integerLiteral.test(value) ? BigInt(value) : undefined;
}

/** The value of an arithmetic expression (already expanded), as bash prints it; undefined when not sure. */
export function evaluateArithmetic(expression: string, lookup: Lookup): string | undefined {
  if (expression.length > 4_096) return undefined;
  const tokens = tokenize(expression);
  if (tokens === undefined) return undefined;
  if (tokens.length === 0) return "0";
  const evaluator = new Evaluator(tokens, lookup);
  const value = evaluator.comma();
  return value === undefined || evaluator.position !== tokens.length ? undefined : String(value);
}

/**
 * Why an arithmetic expression may run code, when it may: a name whose value is not a known integer
 * (bash reads that value as an expression, and `a[$(…)]` in it runs the command), or an array element.
 * `$x` expansions are the caller's: they are text by the time arithmetic reads them.
 */
export function operandProblem(expression: string, lookup: Lookup): string | undefined {
  for (const match of expression.matchAll(/(?<![\w$#@])([A-Za-z_][A-Za-z0-9_]*)(\s*\[)?(\s*=(?!=))?/g)) {
    const name = match[1]!;
    if (match[3] !== undefined && match[2] === undefined) continue; // `y=…` sets y: its old value is not read
    if (match[2] !== undefined) return `the arithmetic ${shorten(expression)} reads the array element ${name}[…], whose subscript bash evaluates as code`;
    const values = lookup(name);
    if (values === undefined || !values.every((value) => value.trim() === "" || integerLiteral.test(value.trim())))
      return `the arithmetic ${shorten(expression)} reads ${name}, whose value is not a known number: bash evaluates that value as an expression, and code in it runs`;
  }
  return undefined;
}

/** The variables an arithmetic expression assigns (`x=1`, `x+=2`, `i++`, `--i`): unknown after it runs. */
export function arithmeticAssigned(expression: string): string[] {
  const names: string[] = [];
  for (const match of expression.matchAll(
    /([A-Za-z_][A-Za-z0-9_]*)\s*(?:\[[^\]]*\])?\s*(?:(?:\*\*|<<|>>|[-+*/%&^|])?=(?!=)|\+\+|--)|(?:\+\+|--)\s*([A-Za-z_][A-Za-z0-9_]*)/g,
  ))
    names.push(match[1] ?? match[2]!);
  return names;
}

function shorten(text: string): string {
  const trimmed = text.trim();
  return JSON.stringify(trimmed.length > 60 ? `${trimmed.slice(0, 57)}…` : trimmed);
}
