import { decodeAnsiC } from "./ansi-c.js";
import { expandBraces, maxBraceWords, mayExpandBraces } from "./brace-expansion.js";

/**
 * A POSIX-ish shell lexer: enough to tell a command word from a quoted argument, see through `$(…)`,
 * backticks and `<(…)`, and keep heredoc bodies out of the command stream. It never throws and never
 * recurses: nested substitutions are skipped with an explicit stack and their text handed back, to be
 * lexed again one analysis level down. What bash would reject (an unterminated quote, substitution or
 * heredoc, nesting deeper than `maxNesting`) is reported as a `problem`, so the caller can fail closed.
 */

/** One word with its quotes removed, and the command text of every substitution inside it. */
export interface Word {
  text: string;
  /** Inner scripts of `$(…)`, `` `…` ``, `<(…)` and `>(…)`, to be analysed as commands too. */
  substitutions: string[];
  /** True when the word is plain characters only (no quote, escape, `$` or backtick): nothing in it expands. */
  plain?: boolean;
}

export interface RedirectToken {
  kind: "redirect";
  operator: string;
  /** The body of a `<<` heredoc, filled in when the lexer reaches the end of the line. */
  body?: string;
}

/** A word is its own token: no wrapper object per word. */
export interface WordToken extends Word {
  kind: "word";
}

export interface OperatorToken {
  readonly kind: "operator";
  readonly value: string;
}

export type Token = WordToken | OperatorToken | RedirectToken;

export interface LexResult {
  tokens: Token[];
  /** Why bash would refuse this text, when it would; the tokens are then a best effort. */
  problem?: string;
}

const maxNesting = 256;

// Operator tokens are never changed: one shared token per operator.
const operatorTokens = new Map<string, OperatorToken>();
function operatorToken(value: string): OperatorToken {
  let token = operatorTokens.get(value);
  if (token === undefined) {
    token = Object.freeze({ kind: "operator", value });
    operatorTokens.set(value, token);
  }
  return token;
}
const newlineToken = operatorToken("\n");

/** The operator at `index`, longest first (`&&` over `&`, `>>` over `>`), or undefined. */
function operatorAt(source: string, index: number): string | undefined {
  const char = source[index];
  const next = source[index + 1];
  switch (char) {
    case ";":
      return next === ";" ? ";;" : ";";
    case "&":
      if (next === "&") return "&&";
      if (next === ">") return source[index + 2] === ">" ? "&>>" : "&>";
      return "&";
    case "|":
      return next === "|" ? "||" : next === "&" ? "|&" : "|";
    case "(":
    case ")":
      return char;
    case ">":
      return next === ">" ? ">>" : next === "|" ? ">|" : next === "&" ? ">&" : ">";
    case "<":
      if (next === "<") return source[index + 2] === "<" ? "<<<" : source[index + 2] === "-" ? "<<-" : "<<";
      return next === "&" ? "<&" : next === ">" ? "<>" : "<";
    default:
      return undefined;
  }
}

// Characters that end a word.
const wordBreak = new Uint8Array(128);
for (const char of " \t\r\n;&|()<>") wordBreak[char.charCodeAt(0)] = 1;

// Characters that end a run of plain word characters: breaks, quotes, escapes, expansions and `{` (brace expansion).
const special = new Uint8Array(128);
for (const char of " \t\r\n;&|()<>'\"\\$`{") special[char.charCodeAt(0)] = 1;
// Inside double quotes only these matter.
const specialInDoubleQuotes = new Uint8Array(128);
for (const char of '"\\$`') specialInDoubleQuotes[char.charCodeAt(0)] = 1;

// Inside `$(…)` and friends: closers, openers, quotes, escapes, comments and heredocs.
const specialWhenNested = new Uint8Array(128);
for (const char of "\\()}\"'`$#<\n") specialWhenNested[char.charCodeAt(0)] = 1;

/** The end of the run of characters from `start` that `table` does not mark. */
function plainRun(source: string, start: number, table: Uint8Array): number {
  let i = start;
  while (i < source.length) {
    const code = source.charCodeAt(i);
    if (code < 128 && table[code] === 1) return i;
    i++;
  }
  return i;
}

interface PendingHeredoc {
  token: RedirectToken | undefined;
  delimiter: string;
  stripTabs: boolean;
}

class Lexer {
  problem: string | undefined;
  wordEnd = 0;
  /** Set by `readWord` when the word holds a `{` outside quotes: it may brace-expand. */
  sawBrace = false;

  constructor(readonly source: string) {}

  fail(problem: string): void {
    this.problem ??= problem;
  }
}

export function lex(source: string): LexResult {
  const lexer = new Lexer(source);
  const tokens: Token[] = [];
  const heredocs: PendingHeredoc[] = [];
  let delimiterFor: RedirectToken | undefined;
  let i = 0;
  while (i < source.length) {
    const code = source.charCodeAt(i);
    if (code === 32 || code === 9 || code === 13) {
      i++; // space, tab, carriage return
    } else if (code === 92 && source.charCodeAt(i + 1) === 10) {
      i += 2; // an escaped newline
    } else if (code === 10) {
      tokens.push(newlineToken);
      i = heredocs.length === 0 ? i + 1 : readHeredocBodies(lexer, i + 1, heredocs.splice(0));
    } else if (code === 35) {
      while (i < source.length && source.charCodeAt(i) !== 10) i++; // a comment
    } else {
      const operator = code >= 128 || wordBreak[code] !== 1 || isProcessSubstitution(source, i) ? undefined : operatorAt(source, i);
      if (operator !== undefined) {
        // `<…`, `>…` and `&>…` redirect; `;`, `&`, `|`, `(` and `)` (and their doubles) separate.
        if (code === 60 || code === 62 || (code === 38 && operator.charCodeAt(1) === 62)) {
          const token: RedirectToken = { kind: "redirect", operator };
          if (operator === "<<" || operator === "<<-") delimiterFor = token;
          tokens.push(token);
        } else {
          tokens.push(operatorToken(operator));
        }
        i += operator.length;
        continue;
      }
      const word = readWord(lexer, i);
      const next = lexer.wordEnd;
      const after = source.charCodeAt(next);
      // `>` or `<`
      if ((after === 62 || after === 60) && /^\d+$/.test(word.text)) {
        i = next; // a file descriptor number (`2>`): it belongs to the redirect that follows
        continue;
      }
      if (delimiterFor) {
        heredocs.push({ token: delimiterFor, delimiter: word.text, stripTabs: delimiterFor.operator === "<<-" });
        delimiterFor = undefined;
        tokens.push(word);
      } else if (lexer.sawBrace && mayExpandBraces(source.slice(i, next))) {
        pushBraceWords(lexer, source.slice(i, next), word, tokens);
      } else {
        tokens.push(word);
      }
      i = next;
    }
  }
  if (heredocs.length > 0) readHeredocBodies(lexer, source.length, heredocs);
  return lexer.problem === undefined ? { tokens } : { tokens, problem: lexer.problem };
}

/** `{rm,-rf,/}` is three words to bash: each alternative is read as a word of its own. */
function pushBraceWords(lexer: Lexer, raw: string, word: WordToken, tokens: Token[]): void {
  const expanded = expandBraces(raw);
  if (expanded === undefined) {
    tokens.push(word);
    return;
  }
  if (expanded === "too many") {
    lexer.fail(`a brace expansion makes more than ${maxBraceWords} words, too many to check each`);
    tokens.push(word);
    return;
  }
  for (const alternative of expanded) {
    if (alternative === "") continue; // an empty alternative (`{,x}`) makes no word
    const inner = new Lexer(alternative);
    tokens.push(readWord(inner, 0));
    if (inner.problem !== undefined) lexer.fail(inner.problem);
  }
}

function isProcessSubstitution(source: string, index: number): boolean {
  return (source[index] === "<" || source[index] === ">") && source[index + 1] === "(";
}

/** Reads heredoc bodies that start at `start`; returns where normal lexing resumes. */
function readHeredocBodies(lexer: Lexer, start: number, pending: readonly PendingHeredoc[]): number {
  const { source } = lexer;
  let i = start;
  for (const heredoc of pending) {
    const lines: string[] = [];
    let closed = false;
    while (i < source.length) {
      const end = source.indexOf("\n", i);
      const line = source.slice(i, end === -1 ? source.length : end);
      i = end === -1 ? source.length : end + 1;
      if ((heredoc.stripTabs ? line.replace(/^\t+/, "") : line) === heredoc.delimiter) {
        closed = true;
        break;
      }
      lines.push(line);
    }
    if (!closed) lexer.fail(`the heredoc <<${heredoc.delimiter} is never closed`);
    if (heredoc.token) heredoc.token.body = lines.join("\n");
  }
  return i;
}

const noSubstitutions: string[] = [];

function addSubstitution(word: Word, inner: string): void {
  if (word.substitutions === noSubstitutions) word.substitutions = [inner];
  else word.substitutions.push(inner);
}

/** Reads the word at `start`; where it ends is left in `lexer.wordEnd` (no tuple to allocate per word). */
function readWord(lexer: Lexer, start: number): WordToken {
  const { source } = lexer;
  // The common word, plain characters up to a break, is taken as it stands.
  const run = plainRun(source, start, special);
  if (run > start && (run === source.length || wordBreak[source.charCodeAt(run)] === 1)) {
    lexer.wordEnd = run;
    lexer.sawBrace = false;
    return { kind: "word", text: source.slice(start, run), substitutions: noSubstitutions, plain: true };
  }
  // Most words hold no substitution: they share one empty list until they get one of their own.
  const word: WordToken = { kind: "word", text: "", substitutions: noSubstitutions, plain: false };
  lexer.sawBrace = false;
  let i = start;
  if (isProcessSubstitution(source, i)) {
    const end = skipNested(lexer, i + 2, "paren");
    const inner = source.slice(i + 2, end - 1);
    addSubstitution(word, inner);
    word.text = `${source[i]}(${inner})`;
    i = end;
  }
  while (i < source.length && wordBreak[source.charCodeAt(i)] !== 1) {
    const run = plainRun(source, i, special);
    if (run > i) {
      word.text += source.slice(i, run);
      i = run;
      continue;
    }
    const char = source[i]!;
    if (char === "'") {
      const end = source.indexOf("'", i + 1);
      if (end === -1) lexer.fail("a single quote (') is never closed");
      word.text += source.slice(i + 1, end === -1 ? source.length : end);
      i = end === -1 ? source.length : end + 1;
    } else if (char === '"') {
      i = readDoubleQuoted(lexer, i + 1, word);
    } else if (char === "\\") {
      // A backslash-newline joins the lines: `r\<newline>m` is `rm`.
      if (source[i + 1] !== "\n") word.text += source[i + 1] ?? "";
      i += 2;
    } else if (char === "$" || char === "`") {
      i = readDollarOrBacktick(lexer, i, word);
    } else {
      if (char === "{") lexer.sawBrace = true;
      word.text += char;
      i++;
    }
  }
  lexer.wordEnd = i;
  return word;
}

function readDoubleQuoted(lexer: Lexer, start: number, word: Word): number {
  const { source } = lexer;
  let i = start;
  while (i < source.length && source[i] !== '"') {
    const run = plainRun(source, i, specialInDoubleQuotes);
    if (run > i) {
      word.text += source.slice(i, run);
      i = run;
      continue;
    }
    const char = source[i]!;
    if (char === "\\" && '"\\$`\n'.includes(source[i + 1] ?? "")) {
      word.text += source[i + 1] === "\n" ? "" : source[i + 1];
      i += 2;
    } else if (char === "$" || char === "`") {
      i = readDollarOrBacktick(lexer, i, word);
    } else {
      word.text += char;
      i++;
    }
  }
  if (i >= source.length) lexer.fail('a double quote (") is never closed');
  return i + 1;
}

/** `$(…)` and `` `…` `` are substitutions; `${…}` is kept as text; `$'…'` is unescaped; a lone `$` is a character. */
function readDollarOrBacktick(lexer: Lexer, start: number, word: Word): number {
  const { source } = lexer;
  if (source[start] === "`") {
    const end = skipNested(lexer, start + 1, "backtick");
    const inner = source.slice(start + 1, end - 1);
    addSubstitution(word, inner);
    word.text += `\`${inner}\``;
    return end;
  }
  const next = source[start + 1];
  if (next === "(") {
    const end = skipNested(lexer, start + 2, "paren");
    const inner = source.slice(start + 2, end - 1);
    // `$((1 + 2))` is arithmetic, not a command; read it as one only when it holds substitutions.
    if (!(inner.startsWith("(") && inner.endsWith(")")) || /\$\(|`/.test(inner)) addSubstitution(word, inner);
    word.text += `$(${inner})`;
    return end;
  }
  if (next === "{") {
    const end = skipNested(lexer, start + 2, "brace");
    word.text += source.slice(start, end);
    return end;
  }
  if (next === "'") {
    let end = start + 2;
    while (end < source.length && source[end] !== "'") end += source[end] === "\\" ? 2 : 1;
    if (end >= source.length) lexer.fail("a $'…' quote is never closed");
    word.text += decodeAnsiC(source.slice(start + 2, end));
    return end + 1;
  }
  word.text += "$";
  return start + 1;
}

type Context = "paren" | "brace" | "dquote" | "backtick";

const closers: Record<Context, string> = { paren: ")", brace: "}", dquote: '"', backtick: "`" };

/**
 * Skips to just after the closer of an already opened `$(`, `${`, `"` or backtick, through any nesting
 * of those inside it, with an explicit stack: 100,000 nested `$(` cannot exhaust the call stack.
 * Heredocs and comments inside `$(…)` are skipped too, so a `'` or `)` in them does not count.
 */
function skipNested(lexer: Lexer, start: number, opened: Context): number {
  const { source } = lexer;
  const stack: Context[] = [opened];
  const heredocs: PendingHeredoc[] = [];
  let i = start;
  while (i < source.length) {
    const run = plainRun(source, i, specialWhenNested);
    if (run > i) {
      i = run;
      continue;
    }
    const top = stack[stack.length - 1]!;
    const char = source[i]!;
    if (char === "\\") {
      i += 2;
      continue;
    }
    if (char === closers[top]) {
      stack.pop();
      i++;
      if (stack.length === 0) return i;
      continue;
    }
    if (top === "backtick") {
      i++;
      continue;
    }
    if (char === "$" && (source[i + 1] === "(" || source[i + 1] === "{")) {
      stack.push(source[i + 1] === "(" ? "paren" : "brace");
      i += 2;
    } else if (char === "`") {
      stack.push("backtick");
      i++;
    } else if (top === "dquote") {
      i++;
    } else if (char === '"') {
      stack.push("dquote");
      i++;
    } else if (char === "'") {
      const end = source.indexOf("'", i + 1);
      if (end === -1) break;
      i = end + 1;
    } else if (char === "(" && top === "paren") {
      stack.push("paren");
      i++;
    } else if (char === "#" && top === "paren" && /[\s;&|(]/.test(source[i - 1] ?? " ")) {
      while (i < source.length && source[i] !== "\n") i++;
    } else if (char === "<" && top === "paren" && source[i + 1] === "<" && source[i + 2] !== "<") {
      i = readNestedHeredocDelimiter(source, i + 2, heredocs);
    } else if (char === "\n" && heredocs.length > 0) {
      i = readHeredocBodies(lexer, i + 1, heredocs.splice(0));
    } else {
      i++;
    }
    if (stack.length > maxNesting) {
      lexer.fail(`substitutions and quotes are nested more than ${maxNesting} levels deep`);
      return source.length;
    }
  }
  lexer.fail(`${describeContext(stack[stack.length - 1] ?? opened)} is never closed`);
  return source.length + 1;
}

/** Reads `-DELIM`, `'DELIM'` or `"DELIM"` after `<<` inside `$(…)`; the body is skipped at the next newline. */
function readNestedHeredocDelimiter(source: string, start: number, heredocs: PendingHeredoc[]): number {
  let i = start;
  const stripTabs = source[i] === "-";
  if (stripTabs) i++;
  while (source[i] === " " || source[i] === "\t") i++;
  const match = /^(?:'([^']*)'|"([^"]*)"|\\?([^\s;&|<>()'"]+))/.exec(source.slice(i, i + 256));
  if (!match) return i;
  heredocs.push({ token: undefined, delimiter: match[1] ?? match[2] ?? match[3]!, stripTabs });
  return i + match[0].length;
}

function describeContext(context: Context): string {
  switch (context) {
    case "paren":
      return "a $( or <( substitution";
    case "brace":
      return "a ${ expansion";
    case "dquote":
      return 'a double quote (")';
    case "backtick":
      return "a backtick (`) substitution";
  }
}

/** `source` with the inside of every quoted string blanked, for text patterns that must not match quoted text. */
export function maskQuoted(source: string): string {
  return source.replace(/'[^']*'|"(?:\\.|[^"\\])*"/g, (quoted) => `${quoted[0]}${" ".repeat(quoted.length - 2)}${quoted[0]}`);
}
