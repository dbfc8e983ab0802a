/**
 * Bash's `$'…'` quoting: the escapes it decodes (`\x72`, `\162`, `\u0072`, `\n`, `\cA`, …), so that
 * `$'\x72\x6d'` is read as the `rm` bash would run. An escape bash does not know stays as written.
 */

const simpleEscapes: Record<string, string> = {
  a: "\x07",
  b: "\b",
  e: "\x1b",
  E: "\x1b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "?": "?",
};

const isHex = (char: string | undefined) => char !== undefined && /^[0-9A-Fa-f]$/.test(char);
const isOctal = (char: string | undefined) => char !== undefined && char >= "0" && char <= "7";

/** The text of `$'body'`, escapes decoded. */
export function decodeAnsiC(body: string): string {
  if (!body.includes("\\")) return body;
  let out = "";
  let i = 0;
  while (i < body.length) {
    const char = body[i]!;
    if (char !== "\\" || i + 1 >= body.length) {
      out += char;
      i++;
      continue;
    }
    const next = body[i + 1]!;
    const simple = simpleEscapes[next];
    if (simple !== undefined) {
      out += simple;
      i += 2;
    } else if (next === "x" || next === "u" || next === "U") {
      const max = next === "x" ? 2 : next === "u" ? 4 : 8;
      let end = i + 2;
      while (end < body.length && end < i + 2 + max && isHex(body[end])) end++;
      if (end === i + 2) {
        out += `\\${next}`;
        i += 2;
        continue;
      }
      const code = Number.parseInt(body.slice(i + 2, end), 16);
      out += code <= 0x10ffff ? String.fromCodePoint(code) : "";
      i = end;
    } else if (isOctal(next)) {
      let end = i + 1;
      while (end < body.length && end < i + 4 && isOctal(body[end])) end++;
      out += String.fromCharCode(Number.parseInt(body.slice(i + 1, end), 8) & 0xff);
      i = end;
    } else if (next === "c" && i + 2 < body.length) {
      out += String.fromCharCode(body.charCodeAt(i + 2) & 0x1f);
      i += 3;
    } else {
      out += `\\${next}`;
      i += 2;
    }
  }
  return out;
}
