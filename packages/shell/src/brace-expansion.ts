/**
 * Bash's brace expansion, done on a word as written (quotes still in it), before anything else expands:
 * `{rm,-rf,/}` is the three words `rm -rf /`, `a{b,c}d` is `abd acd`, `{1..3}` is `1 2 3`. Braces inside
 * quotes, `${…}` and `$(…)` do not expand; `{}` and `{a}` stay as written.
 */

/** Past this many words, a brace expansion is not spelled out (the caller reports it). */
export const maxBraceWords = 1024;

/** Whether a word as written may hold a brace expansion: a cheap test before `expandBraces`. */
export function mayExpandBraces(raw: string): boolean {
  return raw.includes("{") && raw.includes("}") && (raw.includes(",") || raw.includes(".."));
}

/** The words `raw` expands to, each still as written (quotes kept); undefined when nothing expands. */
export function expandBraces(raw: string): string[] | undefined | "too many" {
  const found = findBrace(raw, 0);
  if (found === undefined) return undefined;
  const results: string[] = [];
  const pending = [raw];
  // Each word is split at its first brace until none is left: a list, not recursion, so depth is no concern.
  while (pending.length > 0) {
    const word = pending.pop()!;
    const brace = findBrace(word, 0);
    if (brace === undefined) {
      results.push(word);
    } else {
      const prefix = word.slice(0, brace.open);
      const suffix = word.slice(brace.close + 1);
      for (let index = brace.alternatives.length - 1; index >= 0; index--) pending.push(prefix + brace.alternatives[index]! + suffix);
    }
    if (results.length + pending.length > maxBraceWords) return "too many";
  }
  return results;
}

interface Brace {
  open: number;
  close: number;
  alternatives: string[];
}

/** The first `{…}` from `from` that expands: with a comma at its top level, or a sequence `a..b[..step]`. */
function findBrace(raw: string, from: number): Brace | undefined {
  let i = from;
  while (i < raw.length) {
    const char = raw[i]!;
    if (char === "\\") i += 2;
    else if (char === "'" || char === '"' || char === "`" || (char === "$" && (raw[i + 1] === "(" || raw[i + 1] === "{"))) i = skipQuoted(raw, i);
    else if (char === "{") {
      const brace = readBrace(raw, i);
      if (brace !== undefined) return brace;
      i++;
    } else i++;
  }
  return undefined;
}

/** The index just after a quoted string, `${…}`, `$(…)` or backtick substitution that starts at `start`. */
function skipQuoted(raw: string, start: number): number {
  const char = raw[start]!;
  if (char === "'") {
    const end = raw.indexOf("'", start + 1);
    return end === -1 ? raw.length : end + 1;
  }
  if (char === '"' || char === "`") {
    let i = start + 1;
    while (i < raw.length && raw[i] !== char) i += raw[i] === "\\" ? 2 : 1;
    return i + 1;
  }
  const open = raw[start + 1]!;
  const close = open === "(" ? ")" : "}";
  let depth = 0;
  for (let i = start + 1; i < raw.length; i++) {
    if (raw[i] === "\\") i++;
    else if (raw[i] === open) depth++;
    else if (raw[i] === close && --depth === 0) return i + 1;
  }
  return raw.length;
}

function readBrace(raw: string, open: number): Brace | undefined {
  const commas: number[] = [];
  let depth = 0;
  let i = open + 1;
  while (i < raw.length) {
    const char = raw[i]!;
    if (char === "\\") {
      i += 2;
      continue;
    }
    if (char === "'" || char === '"' || char === "`" || (char === "$" && (raw[i + 1] === "(" || raw[i + 1] === "{"))) {
      i = skipQuoted(raw, i);
      continue;
    }
    if (char === "{") depth++;
    else if (char === "}") {
      if (depth === 0) {
        if (commas.length > 0) {
          const alternatives: string[] = [];
          let last = open + 1;
          for (const comma of commas) {
            alternatives.push(raw.slice(last, comma));
            last = comma + 1;
          }
          alternatives.push(raw.slice(last, i));
          return { open, close: i, alternatives };
        }
        const sequence = expandSequence(raw.slice(open + 1, i));
        return sequence === undefined ? undefined : { open, close: i, alternatives: sequence };
      }
      depth--;
    } else if (char === "," && depth === 0) commas.push(i);
    i++;
  }
  return undefined;
}

/** `1..5`, `5..1`, `a..e`, `1..10..2`: the words of a sequence expression, or undefined. */
function expandSequence(body: string): string[] | undefined {
  const match = /^([-+]?\d+|[A-Za-z])\.\.([-+]?\d+|[A-Za-z])(?:\.\.([-+]?\d+))?$/.exec(body);
  if (match === null) return undefined;
  const [, from, to, stepText] = match;
  const numeric = /\d/.test(from!);
  if (numeric !== /\d/.test(to!)) return undefined;
  const start = numeric ? Number(from) : from!.charCodeAt(0);
  const end = numeric ? Number(to) : to!.charCodeAt(0);
  const step = Math.abs(Number(stepText ?? 1)) || 1;
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end)) return undefined;
  // `{01..10}`: a leading zero on either end pads every number to the wider end (the sign counts).
  const width = numeric && (/^-?0\d/.test(from!) || /^-?0\d/.test(to!)) ? Math.max(from!.length, to!.length) : 0;
  if (Math.abs(end - start) / step > maxBraceWords) return Array.from({ length: maxBraceWords + 1 }, () => "");
  const words: string[] = [];
  for (let value = start; start <= end ? value <= end : value >= end; value += start <= end ? step : -step) {
    words.push(numeric ? padded(value, width) : String.fromCharCode(value));
  }
  return words;
}

function padded(value: number, width: number): string {
  return value < 0 ? `-${String(-value).padStart(width - 1, "0")}` : String(value).padStart(width, "0");
}
