import { decodeAnsiC } from "./ansi-c.js";
import { expandBraces, maxBraceWords, mayExpandBraces } from "./brace-expansion.js";
import { asLiteral, holdsExpansionCharacter } from "./quoted.js";

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
  /**
   * The text as expansion reads it, set only when it differs from `text`: a `$`, backtick or `~` that was
   * quoted or escaped is kept as a stand-in character (see `literalText`), so it is never expanded.
   */
  expandable?: string;
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
  /**
   * True when the only thing bash would refuse is a quote or substitution still open at the end of the text,
   * and every construct before it was read exactly (no arithmetic, no heredoc or comment inside a
   * substitution, whose reading here is approximate): bash then runs at most the commands before it.
   */
  openAtEnd?: true;
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
for (const char of " \t\n;&|()<>") wordBreak[char.charCodeAt(0)] = 1;

// Characters that end a run of plain word characters: breaks, quotes, escapes, expansions and `{` (brace expansion).
const special = new Uint8Array(128);
for (const char of " \t\n;&|()<>'\"\\$`{") special[char.charCodeAt(0)] = 1;
// Inside double quotes only these matter.
const specialInDoubleQuotes = new Uint8Array(128);
for (const char of '"\\$`') specialInDoubleQuotes[char.charCodeAt(0)] = 1;

// Inside `$(…)` and friends: closers, openers, quotes, escapes, comments and heredocs.
const specialWhenNested = new Uint8Array(128);
for (const char of "\\()}\"'`$#<\n[]") specialWhenNested[char.charCodeAt(0)] = 1;

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

/** `open`: a quote or substitution still open at the end of the text; `other`: anything else bash refuses. */
type FailKind = "open" | "other";

class Lexer {
  problem: string | undefined;
  /** Whether any problem is not a construct open at the end of the text. */
  otherProblem = false;
  /** Set once a construct whose reading here is not exact was met: an open one at the end is then not trusted. */
  approximate = false;
  wordEnd = 0;
  /** Set once a `((` was found never closed. */
  unclosedArithmetic = false;
  /** Set by `readWord` when the word holds a `{` outside quotes: it may brace-expand. */
  sawBrace = false;

  constructor(
    readonly source: string,
    /** How many `${…}` this text is read inside. */
    readonly depth = 0,
  ) {}

  fail(problem: string, kind: FailKind = "other"): void {
    this.problem ??= problem;
    if (kind === "other") this.otherProblem = true;
  }
}

// Control characters other than tab and newline: bash reads a carriage return, NUL or escape as part of a
// word where an editor, a terminal or this reader may show something else.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const controlCharacter = /[\x00-\x08\x0b-\x1f\x7f]/;

export function lex(source: string): LexResult {
  const lexer = new Lexer(source);
  const tokens: Token[] = [];
  const control = controlCharacter.exec(source);
  if (control !== null) {
    const code = control[0].charCodeAt(0).toString(16).padStart(4, "0").toUpperCase();
    lexer.fail(`the text holds the control character U+${code} at offset ${control.index}, which bash may read differently than shown`);
  }
  const heredocs: PendingHeredoc[] = [];
  let delimiterFor: RedirectToken | undefined;
  let i = 0;
  while (i < source.length) {
    const code = source.charCodeAt(i);
    if (code === 32 || code === 9) {
      i++; // space, tab
    } else if (code === 92 && source.charCodeAt(i + 1) === 10) {
      i += 2; // an escaped newline
    } else if (code === 10) {
      tokens.push(newlineToken);
      i = heredocs.length === 0 ? i + 1 : readHeredocBodies(lexer, i + 1, heredocs.splice(0));
    } else if (code === 35) {
      while (i < source.length && source.charCodeAt(i) !== 10) i++; // a comment
    } else {
      const operator = code >= 128 || wordBreak[code] !== 1 || isProcessSubstitution(source, i) ? undefined : operatorAt(source, i);
      if (operator === "(" && source.charCodeAt(i + 1) === 40 && atCommandStart(tokens)) {
        lexer.approximate = true;
        const end = lexer.unclosedArithmetic ? -1 : arithmeticCommandEnd(lexer, i + 2);
        if (end !== -1) {
          pushArithmeticCommand(lexer, source.slice(i + 2, end - 2), tokens);
          i = end;
          continue;
        }
      }
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
  if (lexer.problem === undefined) return { tokens };
  if (lexer.otherProblem || lexer.approximate) return { tokens, problem: lexer.problem };
  return { tokens, problem: lexer.problem, openAtEnd: true };
}

// Words after which a command starts (`if ((x))`, `while ((i < 3))`).
// `for ((i = 0; i < 3; i++))` is arithmetic too.
const commandKeywords = new Set(["if", "then", "else", "elif", "do", "while", "until", "!", "{", "time", "for"]);

function atCommandStart(tokens: readonly Token[]): boolean {
  const last = tokens[tokens.length - 1];
  if (last === undefined) return true;
  if (last.kind === "operator") return last.value !== ")";
  return last.kind === "word" && commandKeywords.has(last.text);
}

/**
 * Where `(( … ))` that starts at `start` (just after the `((`) ends, as bash decides it: at the first `)`
 * outside any parentheses opened inside, when another `)` follows it. -1 when it is not arithmetic after all
 * (`((cd x); ls)` is two subshells).
 */
function arithmeticCommandEnd(lexer: Lexer, start: number): number {
  const { source } = lexer;
  let depth = 0;
  let i = start;
  while (i < source.length) {
    const char = source[i]!;
    if (char === "\\") i += 2;
    else if (char === "'") {
      const end = source.indexOf("'", i + 1);
      if (end === -1) return -1;
      i = end + 1;
    } else if (char === '"') i = skipNested(lexer, i + 1, "dquote");
    else if (char === "`") i = skipNested(lexer, i + 1, "backtick");
    else if (char === "$" && (source[i + 1] === "(" || source[i + 1] === "{")) i = skipNested(lexer, i + 2, source[i + 1] === "(" ? "paren" : "brace");
    else if (char === "(") {
      depth++;
      i++;
    } else if (char === ")") {
      if (depth > 0) depth--;
      else return source[i + 1] === ")" ? i + 2 : -1;
      i++;
    } else i++;
  }
  // Never closed: bash refuses the line; later `((` are not scanned again (a long run of them would be quadratic).
  lexer.unclosedArithmetic = true;
  lexer.fail("a (( arithmetic command is never closed");
  return -1;
}

/** `(( expr ))` as the words `((`, the expression (its substitutions read as commands) and `))`. */
function pushArithmeticCommand(lexer: Lexer, expression: string, tokens: Token[]): void {
  const word: WordToken = { kind: "word", text: expression, substitutions: noSubstitutions, plain: false };
  braceSubstitutions(lexer, expression, word);
  tokens.push({ kind: "word", text: "((", substitutions: noSubstitutions, plain: true }, word, {
    kind: "word",
    text: "))",
    substitutions: noSubstitutions,
    plain: true,
  });
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

/** Appends to a word's text; a quoted or escaped piece (`literal`) keeps its `$`, backtick and `~` from expanding. */
function emit(word: Word, piece: string, literal: boolean): void {
  if (literal && word.expandable === undefined && holdsExpansionCharacter(piece)) word.expandable = word.text;
  if (word.expandable !== undefined) word.expandable += literal ? asLiteral(piece) : piece;
  word.text += piece;
}

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
    refuseCase(lexer, inner);
    addSubstitution(word, inner);
    emit(word, `${source[i]}(${inner})`, false);
    i = end;
  }
  while (i < source.length && wordBreak[source.charCodeAt(i)] !== 1) {
    const run = plainRun(source, i, special);
    if (run > i) {
      emit(word, source.slice(i, run), false);
      i = run;
      continue;
    }
    const char = source[i]!;
    if (char === "'") {
      const end = source.indexOf("'", i + 1);
      if (end === -1) lexer.fail("a single quote (') is never closed", "open");
      emit(word, source.slice(i + 1, end === -1 ? source.length : end), true);
      i = end === -1 ? source.length : end + 1;
    } else if (char === '"') {
      i = readDoubleQuoted(lexer, i + 1, word);
    } else if (char === "\\") {
      // A backslash-newline joins the lines: `r\<newline>m` is `rm`.
      if (source[i + 1] !== "\n") emit(word, source[i + 1] ?? "", true);
      i += 2;
    } else if (char === "$" && source[i + 1] === '"') {
      i++; // `$"…"` is a double-quoted string (bash translates it only with a message catalog)
    } else if (char === "$" || char === "`") {
      i = readDollarOrBacktick(lexer, i, word);
    } else {
      if (char === "{") lexer.sawBrace = true;
      emit(word, char, false);
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
      emit(word, source.slice(i, run), true);
      i = run;
      continue;
    }
    const char = source[i]!;
    if (char === "\\" && '"\\$`\n'.includes(source[i + 1] ?? "")) {
      emit(word, source[i + 1] === "\n" ? "" : source[i + 1]!, true);
      i += 2;
    } else if (char === "$" && source[i + 1] === "'") {
      emit(word, "$", true); // `"$'"`: inside double quotes, `$'` is no quote
      i++;
    } else if (char === "$" || char === "`") {
      i = readDollarOrBacktick(lexer, i, word);
    } else {
      emit(word, char, true);
      i++;
    }
  }
  if (i >= source.length) lexer.fail('a double quote (") is never closed', "open");
  return i + 1;
}

/** A `case` pattern ends in `)`, which this reader could take for the end of the substitution: not read. */
function refuseCase(lexer: Lexer, inner: string): void {
  if (/(?:^|[\s;&|(])case\s/.test(inner)) lexer.fail("a case statement inside $(…) or <(…) is not read here (its patterns end in `)`)");
}

/** `$(…)` and `` `…` `` are substitutions; `${…}` is kept as text; `$'…'` is unescaped; a lone `$` is a character. */
function readDollarOrBacktick(lexer: Lexer, start: number, word: Word): number {
  const { source } = lexer;
  if (source[start] === "`") {
    const end = skipNested(lexer, start + 1, "backtick");
    const inner = source.slice(start + 1, end - 1);
    // Inside backticks, `\\`, `\`` and `\$` lose their backslash before the text is read as a script:
    // `` `echo \`rm x\`` `` runs `rm x`.
    addSubstitution(word, inner.replace(/\\([\\`$])/g, "$1"));
    emit(word, `\`${inner}\``, false);
    return end;
  }
  const next = source[start + 1];
  if (next === "(") {
    if (source[start + 2] === "(") lexer.approximate = true; // `$((`: arithmetic or a subshell, as bash decides
    const end = skipNested(lexer, start + 2, "paren");
    const inner = source.slice(start + 2, end - 1);
    refuseCase(lexer, inner);
    // `$((1 + 2))` is arithmetic, not a command; read it as one only when it holds substitutions.
    if (!(inner.startsWith("(") && inner.endsWith(")")) || /\$\(|`/.test(inner)) addSubstitution(word, inner);
    emit(word, `$(${inner})`, false);
    return end;
  }
  if (next === "[") {
    // `$[…]` is arithmetic to its matching `]`, spaces and `<<` included (`$[ 1 << 2 ]` is no heredoc).
    lexer.approximate = true;
    const end = skipNested(lexer, start + 2, "bracket");
    emit(word, source.slice(start, end), false);
    braceSubstitutions(lexer, source.slice(start + 2, end - 1), word);
    return end;
  }
  if (next === "{") {
    const end = skipNested(lexer, start + 2, "brace");
    emit(word, source.slice(start, end), false);
    braceSubstitutions(lexer, source.slice(start + 2, end - 1), word);
    return end;
  }
  if (next === "'") {
    let end = start + 2;
    while (end < source.length && source[end] !== "'") end += source[end] === "\\" ? 2 : 1;
    if (end >= source.length) lexer.fail("a $'…' quote is never closed", "open");
    emit(word, decodeAnsiC(source.slice(start + 2, end)), true);
    return end + 1;
  }
  emit(word, "$", false); // `$NAME`, read by expansion (a lone `$` is kept as it is there too)
  return start + 1;
}

const maxBraceDepth = 32;

/**
 * The substitutions inside `${…}` (`${x:-$(cmd)}`, `${x/a/$(cmd)}`): bash may run them, so they are read as
 * commands like any other. The operand is read as words; deeper than `maxBraceDepth` is a problem.
 */
function braceSubstitutions(lexer: Lexer, inner: string, word: Word): void {
  if (!inner.includes("$(") && !inner.includes("`") && !/[<>]\(/.test(inner)) return;
  if (lexer.depth >= maxBraceDepth) {
    lexer.fail(`\${…} expansions are nested more than ${maxBraceDepth} levels deep`);
    return;
  }
  const nested = new Lexer(inner, lexer.depth + 1);
  let i = 0;
  while (i < inner.length && nested.problem === undefined) {
    const code = inner.charCodeAt(i);
    if (code < 128 && wordBreak[code] === 1 && !isProcessSubstitution(inner, i)) {
      i++;
      continue;
    }
    const found = readWord(nested, i);
    for (const substitution of found.substitutions) addSubstitution(word, substitution);
    i = Math.max(nested.wordEnd, i + 1);
  }
  if (nested.problem !== undefined) lexer.fail(nested.problem);
}

// `group` is a plain `(` inside a substitution: a `#` just after its `)` starts a comment, unlike after `$(…)`.
// `bracket` is `$[…]` (old arithmetic) and a `[` inside it.
type Context = "paren" | "group" | "brace" | "dquote" | "backtick" | "bracket";

const closers: Record<Context, string> = { paren: ")", group: ")", brace: "}", dquote: '"', backtick: "`", bracket: "]" };

/**
 * Skips to just after the closer of an already opened `$(`, `${`, `"` or backtick, through any nesting
 * of those inside it, with an explicit stack: 100,000 nested `$(` cannot exhaust the call stack.
 * Heredocs and comments inside `$(…)` are skipped too, so a `'` or `)` in them does not count.
 */
function skipNested(lexer: Lexer, start: number, opened: Context): number {
  const { source } = lexer;
  const stack: Context[] = [opened];
  const heredocs: PendingHeredoc[] = [];
  let groupClosedAt = -1;
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
      if (top === "group") groupClosedAt = i;
      if (stack.length === 0) return i;
      continue;
    }
    if (top === "backtick") {
      i++;
      continue;
    }
    if (char === "$" && (source[i + 1] === "(" || source[i + 1] === "{")) {
      if (source[i + 1] === "(" && source[i + 2] === "(") lexer.approximate = true;
      stack.push(source[i + 1] === "(" ? "paren" : "brace");
      i += 2;
    } else if (char === "$" && source[i + 1] === "[") {
      lexer.approximate = true;
      stack.push("bracket");
      i += 2;
    } else if (char === "[" && top === "bracket") {
      stack.push("bracket");
      i++;
    } else if (char === "$" && source[i + 1] === "'" && top !== "dquote") {
      // `$'…'`: a backslash escapes the quote (`$'\''` is one quote character)
      let end = i + 2;
      while (end < source.length && source[end] !== "'") end += source[end] === "\\" ? 2 : 1;
      if (end >= source.length) break;
      i = end + 1;
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
    } else if (char === "(" && (top === "paren" || top === "group")) {
      stack.push("group");
      i++;
    } else if (char === "#" && (top === "paren" || top === "group") && (/[\s;&|(<>]/.test(source[i - 1] ?? " ") || groupClosedAt === i)) {
      lexer.approximate = true;
      while (i < source.length && source[i] !== "\n") i++;
    } else if (char === "<" && (top === "paren" || top === "group") && source[i + 1] === "<" && source[i + 2] !== "<") {
      lexer.approximate = true;
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
  lexer.fail(`${describeContext(stack[stack.length - 1] ?? opened)} is never closed`, "open");
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
    case "group":
      return "a ( inside a substitution";
    case "brace":
      return "a ${ expansion";
    case "dquote":
      return 'a double quote (")';
    case "backtick":
      return "a backtick (`) substitution";
    case "bracket":
      return "a $[ arithmetic expansion";
  }
}

/** Just after the closer of the `$(`, `${` or backtick opened before `start` in `text`; past the end when never closed. */
export function closingIndex(text: string, start: number, opened: "paren" | "brace" | "backtick"): number {
  return skipNested(new Lexer(text), start, opened);
}

/**
 * The word an operand inside `${…}` stands for (`${x:-'a b'}`): quotes removed, spaces and operators kept
 * as text, quoted `$` kept from expanding (`expandable`).
 */
export function operandWord(raw: string): Word {
  const word: Word = { text: "", substitutions: noSubstitutions };
  const lexer = new Lexer(raw, 1);
  let i = 0;
  while (i < raw.length) {
    const code = raw.charCodeAt(i);
    if (code < 128 && wordBreak[code] === 1 && !isProcessSubstitution(raw, i)) {
      emit(word, raw[i]!, false);
      i++;
      continue;
    }
    const part = readWord(lexer, i);
    if (part.expandable !== undefined || word.expandable !== undefined) word.expandable = (word.expandable ?? word.text) + (part.expandable ?? part.text);
    word.text += part.text;
    i = Math.max(lexer.wordEnd, i + 1);
  }
  return word;
}

/**
 * The substitutions bash runs in a heredoc body whose delimiter is unquoted: `$(…)`, backticks, and those
 * inside `${…}` and `$((…))`. Quotes are text there (`'$(cmd)'` still runs cmd); `\$` and `` \` `` are not
 * expansions.
 */
export function heredocSubstitutions(body: string): { substitutions: string[]; problem?: string } {
  const lexer = new Lexer(body);
  const word: Word = { text: "", substitutions: noSubstitutions };
  let i = 0;
  while (i < body.length) {
    const char = body[i]!;
    if (char === "\\") i += "$`\\\n".includes(body[i + 1] ?? "") ? 2 : 1;
    else if ((char === "$" && body[i + 1] !== "'") || char === "`") i = readDollarOrBacktick(lexer, i, word);
    else i++;
  }
  return lexer.problem === undefined ? { substitutions: word.substitutions } : { substitutions: word.substitutions, problem: lexer.problem };
}

/** `source` with the inside of every quoted string blanked, for text patterns that must not match quoted text. */
export function maskQuoted(source: string): string {
  return source.replace(/'[^']*'|"(?:\\.|[^"\\])*"/g, (quoted) => `${quoted[0]}${" ".repeat(quoted.length - 2)}${quoted[0]}`);
}
