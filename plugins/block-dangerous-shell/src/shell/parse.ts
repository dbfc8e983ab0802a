import { lex, type Token, type Word } from "./lex.js";

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

export type Command = SimpleCommand | GroupCommand;
/** Commands joined by `|`: each one reads what the one before it writes. */
export type Pipeline = Command[];
/** Pipelines joined by `;`, `&&`, `||`, `&` or newlines. */
export type Script = Pipeline[];

const listSeparators = new Set([";", "&", "&&", "||", "\n", ";;"]);
// Deeper groups are read as if their brackets were not there, so hostile input cannot exhaust the stack.
const maxGroupDepth = 64;

export interface ParseResult {
  script: Script;
  /** Why bash would refuse the text (unterminated quote, unclosed group, nesting too deep), when it would. */
  problem?: string;
}

/** Parses a command line into pipelines of commands. Total: any input gives a (possibly empty) script. */
export function parseScript(source: string): ParseResult {
  const lexed = lex(source);
  const { tokens } = lexed;
  let problem = lexed.problem;
  let position = 0;
  const peek = (): Token | undefined => tokens[position];
  const isOperator = (token: Token | undefined, value: string) => token?.kind === "operator" && token.value === value;
  const isWord = (token: Token | undefined, text: string) => token?.kind === "word" && token.word.text === text;

  function list(close: ")" | "}" | undefined, depth: number): Script {
    const script: Script = [];
    while (position < tokens.length) {
      const token = peek()!;
      if ((close === ")" && isOperator(token, ")")) || (close === "}" && isWord(token, "}"))) {
        position++;
        return script;
      }
      if ((token.kind === "operator" && listSeparators.has(token.value)) || isOperator(token, ")") || isOperator(token, "|")) {
        position++; // a separator, or a stray `)` / `|`: skip it so parsing always moves on
        continue;
      }
      script.push(pipeline(depth));
    }
    if (close !== undefined) problem ??= `a group opened with "${close === ")" ? "(" : "{"}" is never closed`;
    return script;
  }

  function pipeline(depth: number): Pipeline {
    const commands: Pipeline = [command(depth)];
    while (isOperator(peek(), "|") || isOperator(peek(), "|&")) {
      position++;
      commands.push(command(depth));
    }
    return commands;
  }

  function command(depth: number): Command {
    const opens = isOperator(peek(), "(") ? ")" : isWord(peek(), "{") ? "}" : undefined;
    if (opens !== undefined) {
      position++;
      if (depth >= maxGroupDepth) {
        problem ??= `groups are nested more than ${maxGroupDepth} levels deep`;
        return { type: "simple", words: [], redirects: [] };
      }
      return { type: "group", subshell: opens === ")", script: list(opens, depth + 1), redirects: redirects() };
    }
    const simple: SimpleCommand = { type: "simple", words: [], redirects: [] };
    for (let token = peek(); token !== undefined; token = peek()) {
      if (token.kind === "word") {
        simple.words.push(token.word);
        position++;
      } else if (token.kind === "redirect") {
        simple.redirects.push(redirect());
      } else if (isOperator(token, "(") && isOperator(tokens[position + 1], ")")) {
        position += 2; // `name()`: a function definition; its body follows as the next command
        return simple;
      } else {
        break;
      }
    }
    return simple;
  }

  function redirects(): Redirect[] {
    const found: Redirect[] = [];
    while (peek()?.kind === "redirect") found.push(redirect());
    return found;
  }

  function redirect(): Redirect {
    const token = peek() as Extract<Token, { kind: "redirect" }>;
    position++;
    const next = peek();
    const target = next?.kind === "word" ? next.word : { text: "", substitutions: [] };
    if (next?.kind === "word") position++;
    return token.body === undefined ? { operator: token.operator, target } : { operator: token.operator, target, body: token.body };
  }

  const script = list(undefined, 0);
  return problem === undefined ? { script } : { script, problem };
}
