/**
 * A small POSIX-ish shell lexer: enough to tell a command word from a quoted argument, see through
 * `$(…)`, backticks and `<(…)`, and keep heredoc bodies out of the command stream. It never throws:
 * unbalanced quotes or parentheses run to the end of the input.
 */

/** One word with its quotes removed, and the command text of every substitution inside it. */
export interface Word {
  text: string;
  /** Inner scripts of `$(…)`, `` `…` ``, `<(…)` and `>(…)`, to be analysed as commands too. */
  substitutions: string[];
}

export interface RedirectToken {
  kind: "redirect";
  operator: string;
  /** The body of a `<<` heredoc, filled in when the lexer reaches the end of the line. */
  body?: string;
}

export type Token = { kind: "word"; word: Word } | { kind: "operator"; value: string } | RedirectToken;

// Longest first, so `&&` wins over `&` and `>>` over `>`.
const operators = ["&>>", "<<<", "<<-", "&&", "||", ";;", "|&", ">>", ">|", ">&", "<&", "<>", "<<", "&>", ";", "&", "|", "(", ")", ">", "<"];
const redirectOperators = new Set(["&>>", "<<<", "<<-", ">>", ">|", ">&", "<&", "<>", "<<", "&>", ">", "<"]);
const wordBreak = new Set([" ", "\t", "\r", "\n", ";", "&", "|", "(", ")", "<", ">"]);

interface PendingHeredoc {
  token: RedirectToken;
  delimiter: string;
  stripTabs: boolean;
}

export function lex(source: string): Token[] {
  const tokens: Token[] = [];
  const heredocs: PendingHeredoc[] = [];
  let delimiterFor: RedirectToken | undefined;
  let i = 0;
  while (i < source.length) {
    const char = source[i]!;
    if (char === " " || char === "\t" || char === "\r") {
      i++;
    } else if (char === "\\" && source[i + 1] === "\n") {
      i += 2;
    } else if (char === "\n") {
      tokens.push({ kind: "operator", value: "\n" });
      i = readHeredocBodies(source, i + 1, heredocs.splice(0));
    } else if (char === "#") {
      while (i < source.length && source[i] !== "\n") i++;
    } else if (isProcessSubstitution(source, i) || operatorAt(source, i) === undefined) {
      const [word, next] = readWord(source, i);
      if (/^\d+$/.test(word.text) && (source[next] === ">" || source[next] === "<")) {
        i = next; // a file descriptor number (`2>`): it belongs to the redirect that follows
        continue;
      }
      if (delimiterFor) {
        heredocs.push({ token: delimiterFor, delimiter: word.text, stripTabs: delimiterFor.operator === "<<-" });
        delimiterFor = undefined;
      }
      tokens.push({ kind: "word", word });
      i = next;
    } else {
      const operator = operatorAt(source, i)!;
      if (redirectOperators.has(operator)) {
        const token: RedirectToken = { kind: "redirect", operator };
        if (operator === "<<" || operator === "<<-") delimiterFor = token;
        tokens.push(token);
      } else {
        tokens.push({ kind: "operator", value: operator });
      }
      i += operator.length;
    }
  }
  return tokens;
}

function operatorAt(source: string, index: number): string | undefined {
  return operators.find((operator) => source.startsWith(operator, index));
}

function isProcessSubstitution(source: string, index: number): boolean {
  return (source[index] === "<" || source[index] === ">") && source[index + 1] === "(";
}

/** Reads heredoc bodies that start after a newline; returns where normal lexing resumes. */
function readHeredocBodies(source: string, start: number, pending: PendingHeredoc[]): number {
  let i = start;
  for (const heredoc of pending) {
    const lines: string[] = [];
    while (i < source.length) {
      const end = source.indexOf("\n", i);
      const line = source.slice(i, end === -1 ? source.length : end);
      i = end === -1 ? source.length : end + 1;
      if ((heredoc.stripTabs ? line.replace(/^\t+/, "") : line) === heredoc.delimiter) break;
      lines.push(line);
    }
    heredoc.token.body = lines.join("\n");
  }
  return i;
}

function readWord(source: string, start: number): [Word, number] {
  const word: Word = { text: "", substitutions: [] };
  let i = start;
  if (isProcessSubstitution(source, i)) {
    const [inner, next] = readBalanced(source, i + 2);
    word.substitutions.push(inner);
    word.text = `${source[i]}(${inner})`;
    i = next;
  }
  while (i < source.length && !wordBreak.has(source[i]!)) {
    const char = source[i]!;
    if (char === "'") {
      const end = indexOrEnd(source, "'", i + 1);
      word.text += source.slice(i + 1, end);
      i = end + 1;
    } else if (char === '"') {
      i = readDoubleQuoted(source, i + 1, word);
    } else if (char === "\\") {
      word.text += source[i + 1] ?? "";
      i += 2;
    } else if (char === "$" || char === "`") {
      i = readDollarOrBacktick(source, i, word);
    } else {
      word.text += char;
      i++;
    }
  }
  return [word, i];
}

function readDoubleQuoted(source: string, start: number, word: Word): number {
  let i = start;
  while (i < source.length && source[i] !== '"') {
    const char = source[i]!;
    if (char === "\\" && '"\\$`\n'.includes(source[i + 1] ?? "")) {
      word.text += source[i + 1] === "\n" ? "" : source[i + 1];
      i += 2;
    } else if (char === "$" || char === "`") {
      i = readDollarOrBacktick(source, i, word);
    } else {
      word.text += char;
      i++;
    }
  }
  return i + 1;
}

/** `$(…)` and `` `…` `` are substitutions; `${…}` and `$'…'` are kept as text; a lone `$` is a character. */
function readDollarOrBacktick(source: string, start: number, word: Word): number {
  if (source[start] === "`") {
    let end = start + 1;
    while (end < source.length && source[end] !== "`") end += source[end] === "\\" ? 2 : 1;
    const inner = source.slice(start + 1, end);
    word.substitutions.push(inner);
    word.text += `\`${inner}\``;
    return end + 1;
  }
  const next = source[start + 1];
  if (next === "(") {
    const [inner, end] = readBalanced(source, start + 2);
    word.substitutions.push(inner);
    word.text += `$(${inner})`;
    return end;
  }
  if (next === "{") {
    const end = indexOrEnd(source, "}", start + 2);
    word.text += source.slice(start, end + 1);
    return end + 1;
  }
  if (next === "'") {
    const end = indexOrEnd(source, "'", start + 2);
    word.text += source.slice(start + 2, end).replace(/\\(.)/g, "$1");
    return end + 1;
  }
  word.text += "$";
  return start + 1;
}

/** The text up to the `)` that closes an already opened `(`, skipping quoted parts. */
function readBalanced(source: string, start: number): [string, number] {
  let depth = 1;
  let i = start;
  while (i < source.length) {
    const char = source[i]!;
    if (char === "\\") i += 2;
    else if (char === "'") i = indexOrEnd(source, "'", i + 1) + 1;
    else if (char === '"') i = readDoubleQuoted(source, i + 1, { text: "", substitutions: [] });
    else {
      if (char === "(") depth++;
      if (char === ")" && --depth === 0) return [source.slice(start, i), i + 1];
      i++;
    }
  }
  return [source.slice(start), source.length];
}

function indexOrEnd(source: string, search: string, from: number): number {
  const index = source.indexOf(search, from);
  return index === -1 ? source.length : index;
}

/** `source` with the inside of every quoted string blanked, for text patterns that must not match quoted text. */
export function maskQuoted(source: string): string {
  return source.replace(/'[^']*'|"(?:\\.|[^"\\])*"/g, (quoted) => `${quoted[0]}${" ".repeat(quoted.length - 2)}${quoted[0]}`);
}
