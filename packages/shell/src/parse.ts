import { lex, type Token, type Word, type WordToken } from "./lex.js";

export type { Word } from "./lex.js";

export interface Redirect {
  operator: string;
  target: Word;
  /** A heredoc's body (`<<EOF`). */
  body?: string;
}

/** `words` and redirects of one command, e.g. `sudo rm -rf / 2>/dev/null`. */
export interface SimpleCommand {
  type: "simple";
  words: Word[];
  redirects: Redirect[];
}

/** `( … )` (a subshell: `cd` inside it does not last) or `{ …; }`. */
export interface GroupCommand {
  type: "group";
  subshell: boolean;
  script: Script;
  redirects: Redirect[];
}

/** `name() { … }` or `function name { … }`: the body runs only where the name is called. */
export interface FunctionCommand {
  type: "function";
  name: string;
  body: Command;
}

export type Command = SimpleCommand | GroupCommand | FunctionCommand;
/**
 * Commands joined by `|`: each one reads what the one before it writes. `connector`: the separators read
 * before it (`&&`, `||`, `;;`, `;` then `&` for a case's `;&`), which control flow reads.
 */
export type Pipeline = Command[] & { connector?: string };
/** Pipelines joined by `;`, `&&`, `||`, `&` or newlines. */
export type Script = Pipeline[];

/**
 * A coprocess reads a pipe the rest of the line writes to (`echo x >&${COPROC[1]}`) when it runs: a subshell
 * whose input comes from outside it, so a shell in it reads code that is not known here (`coproc bash`).
 */
function coprocess(command: Command): GroupCommand {
  const pipe: Redirect = { operator: "<", target: { text: "/dev/fd/coproc", substitutions: [] } };
  return { type: "group", subshell: true, script: [[command]], redirects: [pipe] };
}

/** Shared by every command without redirects (most): frozen, so a write to it fails loudly. */
const noRedirects: Redirect[] = Object.freeze([]) as unknown as Redirect[];

const listSeparators = new Set([";", "&", "&&", "||", "\n", ";;"]);
// Deeper groups are read as if their brackets were not there, so hostile input cannot exhaust the stack.
const maxGroupDepth = 64;

export interface ParseResult {
  script: Script;
  /** Why bash would refuse the text (unterminated quote, unclosed group, nesting too deep), when it would. */
  problem?: string;
  /** True when `problem` is only a quote or substitution left open at the end of the text (see `LexResult`). */
  openAtEnd?: true;
}

/** The separators between a pipeline and the one before it, as written (`"&&"`, `";;"`, `";&"`); empty for the first. */
export function connectorBefore(pipeline: Pipeline): string {
  return pipeline.connector ?? "";
}

/** Parses a command line into pipelines of commands. Total: any input gives a (possibly empty) script. */
export function parseScript(source: string): ParseResult {
  const lexed = lex(source);
  const parser = new Parser(lexed.tokens, undefined);
  const script = parser.list(undefined, 0);
  const problem = lexed.problem ?? parser.problem;
  if (problem === undefined) return { script };
  // The lexer's open construct is all that is wrong with the text: the parser found nothing else.
  if (lexed.openAtEnd === true && parser.problem === undefined) return { script, problem, openAtEnd: true };
  return { script, problem };
}

const isOperator = (token: Token | undefined, value: string) => token?.kind === "operator" && token.value === value;
const isWord = (token: Token | undefined, text: string) => token?.kind === "word" && token.text === text;

/** A recursive-descent parser over the tokens; a class, so one parse allocates no closures. */
class Parser {
  position = 0;

  constructor(
    readonly tokens: readonly Token[],
    public problem: string | undefined,
  ) {}

  peek(): Token | undefined {
    return this.tokens[this.position];
  }

  list(close: ")" | "}" | undefined, depth: number): Script {
    const script: Script = [];
    let separators = "";
    while (this.position < this.tokens.length) {
      const token = this.peek()!;
      if ((close === ")" && isOperator(token, ")")) || (close === "}" && isWord(token, "}"))) {
        this.position++;
        return script;
      }
      if ((token.kind === "operator" && listSeparators.has(token.value)) || isOperator(token, ")") || isOperator(token, "|")) {
        if (token.kind === "operator" && listSeparators.has(token.value)) separators += token.value;
        this.position++; // a separator, or a stray `)` / `|`: skip it so parsing always moves on
        continue;
      }
      const pipeline = this.pipeline(depth);
      if (separators !== "") pipeline.connector = separators;
      separators = "";
      script.push(pipeline);
    }
    if (close !== undefined) this.problem ??= `a group opened with "${close === ")" ? "(" : "{"}" is never closed`;
    return script;
  }

  pipeline(depth: number): Pipeline {
    const commands: Pipeline = [this.command(depth)];
    while (isOperator(this.peek(), "|") || isOperator(this.peek(), "|&")) {
      this.position++;
      commands.push(this.command(depth));
    }
    return commands;
  }

  command(depth: number): Command {
    // `coproc cmd`, `coproc { …; }`, `coproc NAME { …; }`: the command runs (in the background) all the same.
    if (isWord(this.peek(), "coproc") && this.tokens[this.position + 1] !== undefined) {
      this.position++;
      const after = this.tokens[this.position + 1];
      if (this.peek()?.kind === "word" && (isWord(after, "{") || isOperator(after, "("))) this.position++; // the coprocess's NAME
      return coprocess(this.command(depth));
    }
    // `function name { … }` / `function name() { … }`: the name, then the body.
    if (isWord(this.peek(), "function") && this.tokens[this.position + 1]?.kind === "word") {
      const name = this.tokens[this.position + 1] as Extract<Token, { kind: "word" }>;
      this.position += 2;
      if (isOperator(this.peek(), "(") && isOperator(this.tokens[this.position + 1], ")")) this.position += 2;
      return this.functionBody(name.text, depth);
    }
    const opens = isOperator(this.peek(), "(") ? ")" : isWord(this.peek(), "{") ? "}" : undefined;
    if (opens !== undefined) {
      this.position++;
      if (depth >= maxGroupDepth) {
        this.problem ??= `groups are nested more than ${maxGroupDepth} levels deep`;
        return { type: "simple", words: [], redirects: [] };
      }
      return { type: "group", subshell: opens === ")", script: this.list(opens, depth + 1), redirects: this.redirects() };
    }
    const simple: SimpleCommand = { type: "simple", words: this.wordRun(), redirects: noRedirects };
    for (let token = this.peek(); token !== undefined; token = this.peek()) {
      if (token.kind === "word") {
        simple.words.push(token);
        this.position++;
      } else if (token.kind === "redirect") {
        if (simple.redirects === noRedirects) simple.redirects = [];
        simple.redirects.push(this.redirect());
      } else if (isOperator(token, "(") && isOperator(this.tokens[this.position + 1], ")")) {
        this.position += 2; // `name()`: a function definition
        return simple.words.length === 1 ? this.functionBody(simple.words[0]!.text, depth) : simple;
      } else {
        break;
      }
    }
    return simple;
  }

  /** The words from here up to the first other token, in one list of the right size. */
  wordRun(): Word[] {
    const start = this.position;
    while (this.tokens[this.position]?.kind === "word") this.position++;
    return this.tokens.slice(start, this.position) as WordToken[];
  }

  /** The body after `name()` (newlines may come first); a definition with no body is an empty command. */
  functionBody(name: string, depth: number): Command {
    while (isOperator(this.peek(), "\n")) this.position++;
    if (depth >= maxGroupDepth) {
      this.problem ??= `function definitions are nested more than ${maxGroupDepth} levels deep`;
      return { type: "simple", words: [], redirects: [] };
    }
    const body: Command = this.peek() === undefined ? { type: "simple", words: [], redirects: [] } : this.command(depth + 1);
    return { type: "function", name, body };
  }

  redirects(): Redirect[] {
    const found: Redirect[] = [];
    while (this.peek()?.kind === "redirect") found.push(this.redirect());
    return found;
  }

  redirect(): Redirect {
    const token = this.peek() as Extract<Token, { kind: "redirect" }>;
    this.position++;
    const next = this.peek();
    const target = next?.kind === "word" ? next : { text: "", substitutions: [] };
    if (next?.kind === "word") this.position++;
    return token.body === undefined ? { operator: token.operator, target } : { operator: token.operator, target, body: token.body };
  }
}
