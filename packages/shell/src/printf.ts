import { isUnknown, unknownText } from "./unknown.js";

/**
 * What bash's builtin `echo` and `printf` print, computed exactly for the forms modelled here and
 * undefined for any other (a conversion such as `%q` or `%x`, a `*` width): text they print that feeds a
 * shell or a command name must be bash's text or unknown, never a guess.
 */

/**
 * How escapes read: `echo -e` wants `\0` before octal digits (`\0101`), `%b` takes `\0nnn` and `\nnn`, a
 * printf format takes `\nnn` and keeps `\c` as it is.
 */
type EscapeMode = "echo" | "b" | "format";

const simpleEscapes: Record<string, string> = { a: "\x07", b: "\b", e: "\x1b", E: "\x1b", f: "\f", n: "\n", r: "\r", t: "\t", v: "\v", "\\": "\\" };

/** A backslash escape at `text[index]` (`\n`, `\x72`, `\0162`, …); "stop" for `\c` where it ends the output. */
function escapeAt(text: string, index: number, mode: EscapeMode): { out: string; end: number } | "stop" {
  const next = text[index + 1];
  if (next === undefined) return { out: "\\", end: index + 1 };
  if (simpleEscapes[next] !== undefined) return { out: simpleEscapes[next]!, end: index + 2 };
  if (next === "c") return mode === "format" ? { out: "\\c", end: index + 2 } : "stop";
  if (mode === "format" && (next === '"' || next === "'" || next === "?")) return { out: next, end: index + 2 };
  if (next === "x" || next === "u" || next === "U") {
    const max = next === "x" ? 2 : next === "u" ? 4 : 8;
    const digits = /^[0-9A-Fa-f]*/.exec(text.slice(index + 2, index + 2 + max))![0];
    if (digits === "") return { out: `\\${next}`, end: index + 2 };
    const code = Number.parseInt(digits, 16);
    return { out: code <= 0x10ffff ? String.fromCodePoint(code) : "", end: index + 2 + digits.length };
  }
  let octal: string | undefined;
  let start = index + 1;
  if (next === "0" && mode !== "format") {
    start = index + 2;
    octal = /^[0-7]{0,3}/.exec(text.slice(start, start + 3))![0];
  } else if (mode !== "echo") octal = /^[0-7]{1,3}/.exec(text.slice(start, start + 3))?.[0];
  if (octal !== undefined) return { out: String.fromCharCode(Number.parseInt(octal || "0", 8) & 0xff), end: start + octal.length };
  return { out: `\\${next}`, end: index + 2 };
}

/** Text with `echo -e` / `%b` escapes decoded; `stopped` when `\c` ended the output there. */
function decodeEscapes(text: string, mode: EscapeMode): { text: string; stopped: boolean } {
  if (!text.includes("\\")) return { text, stopped: false };
  let out = "";
  let index = 0;
  while (index < text.length) {
    if (text[index] !== "\\") {
      out += text[index++];
      continue;
    }
    const decoded = escapeAt(text, index, mode);
    if (decoded === "stop") return { text: out, stopped: true };
    out += decoded.out;
    index = decoded.end;
  }
  return { text: out, stopped: false };
}

/** What `echo args…` prints, without its final newline (`newline` says whether one follows). */
export function echoOutput(args: readonly string[]): { text: string; newline: boolean } {
  let index = 0;
  let escapes = false;
  let newline = true;
  while (index < args.length && /^-[neE]+$/.test(args[index]!)) {
    for (const flag of args[index]!.slice(1)) {
      if (flag === "n") newline = false;
      else escapes = flag === "e";
    }
    index++;
  }
  const joined = args.slice(index).join(" ");
  if (!escapes) return { text: joined, newline };
  const decoded = decodeEscapes(joined, "echo");
  return { text: decoded.text, newline: newline && !decoded.stopped };
}

const conversion = /%([-+ #0]*)(\d*)(?:\.(\d*))?([a-zA-Z%])/y;

/** What `printf format args…` prints; undefined for a conversion not modelled here. `-v` prints nothing. */
export function printfOutput(args: readonly string[]): string | undefined {
  let rest = args;
  if (rest[0] === "-v") return rest.length >= 3 ? "" : undefined;
  if (rest[0] === "--") rest = rest.slice(1);
  const format = rest[0];
  if (format === undefined) return undefined;
  if (isUnknown(format)) return unknownText;
  const values = rest.slice(1);
  let out = "";
  let used = 0;
  // The format is used again while arguments are left, as long as it takes any.
  for (let pass = 0; pass < 1_000; pass++) {
    const before = used;
    const printed = formatOnce(format, values, used);
    if (printed === undefined) return undefined;
    out += printed.text;
    used = printed.used;
    if (printed.stopped || used >= values.length || used === before) break;
  }
  return out;
}

function formatOnce(format: string, values: readonly string[], start: number): { text: string; used: number; stopped: boolean } | undefined {
  let text = "";
  let used = start;
  let index = 0;
  while (index < format.length) {
    const char = format[index]!;
    if (char === "\\") {
      const decoded = escapeAt(format, index, "format");
      if (decoded === "stop") return { text, used, stopped: true };
      text += decoded.out;
      index = decoded.end;
      continue;
    }
    if (char !== "%") {
      text += char;
      index++;
      continue;
    }
    conversion.lastIndex = index;
    const match = conversion.exec(format);
    if (match === null) return undefined;
    const [whole, flags, width, precision, kind] = match as unknown as [string, string, string, string | undefined, string];
    index += whole.length;
    if (kind === "%") {
      text += "%";
      continue;
    }
    const value = values[used++] ?? "";
    let piece: string;
    if (kind === "s" || kind === "b") {
      const decoded = kind === "b" ? decodeEscapes(value, "b") : { text: value, stopped: false };
      piece = precision === undefined ? decoded.text : [...decoded.text].slice(0, Number(precision)).join("");
      if (decoded.stopped) return { text: text + pad(piece, flags, width), used, stopped: true };
    } else if (kind === "c") {
      piece = [...value][0] ?? "";
    } else if ((kind === "d" || kind === "i") && precision === undefined && !flags.includes("#")) {
      if (isUnknown(value)) return { text: text + unknownText, used, stopped: false };
      if (!/^\s*[-+]?[0-9]+\s*$/.test(value) && value !== "") return undefined;
      const number = value === "" ? 0n : BigInt(value.trim());
      piece = `${number >= 0n && flags.includes("+") ? "+" : number >= 0n && flags.includes(" ") ? " " : ""}${number}`;
      if (flags.includes("0") && !flags.includes("-") && width !== "") piece = zeroPad(piece, Number(width));
    } else return undefined;
    text += pad(piece, flags, width);
  }
  return { text, used, stopped: false };
}

function pad(piece: string, flags: string, width: string): string {
  const size = width === "" ? 0 : Math.min(Number(width), 4_096);
  return flags.includes("-") ? piece.padEnd(size) : piece.padStart(size);
}

function zeroPad(piece: string, width: number): string {
  const sign = /^[-+ ]/.test(piece) ? piece[0]! : "";
  return sign + piece.slice(sign.length).padStart(Math.min(width, 4_096) - sign.length, "0");
}
