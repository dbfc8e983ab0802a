import type { Invocation } from "../invocations.js";
import { letters, names, readArguments, type Grammar } from "./options.js";
import { isUnknown } from "../unknown.js";
import { addCode, addUnread, isRunTime, type RunnerReading } from "./reading.js";

/**
 * GNU sed. Its script runs commands with `e` (`1e rm -rf ~` runs the rest of the line; a bare `e` runs
 * the pattern space) and the `e` flag of `s` (runs the pattern space after the substitution), and writes
 * files with `w`/`W` and the `w` flag. A script from a file (`-f`) is not read here, so it is unknown.
 */
const grammar: Grammar = {
  program: "sed",
  abbreviate: true,
  short: { ...letters("nrEsuzb", "efl"), i: { arity: "optional" } },
  long: names(
    "quiet silent debug follow-symlinks posix regexp-extended separate sandbox unbuffered null-data binary help version zero-terminated",
    "expression file line-length",
    "in-place",
  ),
};

export function readSed(invocation: Invocation, reading: RunnerReading): void {
  const read = readArguments(invocation.args, grammar);
  reading.problems.push(...read.problems);
  const scripts: string[] = [];
  let sandbox = false;
  for (const option of read.options) {
    if (option.name === "--sandbox") sandbox = true;
    if ((option.name === "-e" || option.name === "--expression") && option.value !== undefined) scripts.push(option.value);
    if ((option.name === "-f" || option.name === "--file") && option.value !== undefined) addUnread(reading, "sed -f", `the script in ${option.value}`);
  }
  if (scripts.length === 0 && !read.options.some((option) => option.name === "-f" || option.name === "--file")) {
    const script = read.operands[0];
    if (script === undefined) return;
    scripts.push(script);
  }
  // `--sandbox` makes sed refuse `e`, `r` and `w`.
  if (sandbox) return;
  for (const script of scripts) readScript(script, reading);
}

/** Walks a sed script command by command; what it cannot follow is a problem, never a guess. */
function readScript(script: string, reading: RunnerReading): void {
  // A `$` here is sed's last-line address; a script only known at run time holds the marker (or fails to parse).
  if (isUnknown(script)) return void reading.problems.push(`sed runs a script only known at run time (${script})`);
  let at = 0;
  const text = script;
  while (at < text.length) {
    while (at < text.length && isBlank(text.charCodeAt(at))) at++;
    if (at >= text.length) break;
    if (text[at] === "#") {
      at = lineEnd(text, at) + 1;
      continue;
    }
    at = skipAddresses(text, at);
    if (at < 0) return void reading.problems.push(`sed: the script ${script} has an address this reader cannot follow`);
    while (text[at] === " " || text[at] === "\t" || text[at] === "!") at++;
    const command = text[at++];
    if (command === undefined) break;
    switch (command) {
      case "{":
      case "}":
      case "=":
      case "d":
      case "D":
      case "g":
      case "G":
      case "h":
      case "H":
      case "l":
      case "n":
      case "N":
      case "p":
      case "P":
      case "x":
      case "z":
      case "F":
        break;
      case "q":
      case "Q":
      case "L":
      case "b":
      case "t":
      case "T":
      case ":":
      case "v": {
        // A label or an exit code, up to `;` or the end of the line (`:` labels run to the end of the line).
        while (at < text.length && text[at] !== "\n" && (command === ":" || text[at] !== ";") && text[at] !== "}") at++;
        break;
      }
      case "a":
      case "i":
      case "c":
        at = textEnd(text, at);
        break;
      case "r":
      case "R":
        at = lineEnd(text, at) + 1;
        break;
      case "w":
      case "W":
        readWrite(text.slice(at, lineEnd(text, at)).trim(), reading);
        at = lineEnd(text, at) + 1;
        break;
      case "e": {
        const command = text.slice(at, lineEnd(text, at)).trim();
        at = lineEnd(text, at) + 1;
        if (command === "") reading.problems.push("sed runs its pattern space as a command (`e`), text only known at run time");
        else addCode(reading, command, "sed e");
        break;
      }
      case "s":
      case "y": {
        const end = readSubstitution(text, at, command, reading);
        if (end < 0) return void reading.problems.push(`sed: the ${command} command in ${script} cannot be followed`);
        at = end;
        break;
      }
      default:
        return void reading.problems.push(`sed: the command ${command} in ${script} is not one this reader has read`);
    }
  }
}

/** Skips `1`, `$`, `/re/`, `\%re%`, `1,5`, `0~3`, `addr,+N`; -1 when an address does not close. */
function skipAddresses(text: string, start: number): number {
  let at = start;
  for (let part = 0; part < 2; part++) {
    if (text[at] === "/" || text[at] === "\\") {
      const delimiter = text[at] === "\\" ? text[at + 1] : "/";
      if (delimiter === undefined) return -1;
      at = closing(text, at + (text[at] === "\\" ? 2 : 1), delimiter);
      if (at < 0) return -1;
      at++;
      while (text[at] === "I" || text[at] === "M") at++;
    } else {
      while (at < text.length && /[\d$~+]/.test(text[at]!)) at++;
    }
    if (part === 0 && text[at] === ",") at++;
    else break;
  }
  return at;
}

/** The index of the unescaped `delimiter` from `at`; -1 when there is none. */
function closing(text: string, start: number, delimiter: string): number {
  for (let at = start; at < text.length; at++) {
    if (text[at] === "\\") at++;
    else if (text[at] === delimiter) return at;
    else if (text[at] === "\n" && delimiter !== "\n") return -1;
  }
  return -1;
}

/** `a text`, `a\` + lines: the text runs to the end of the line, or over lines ending in a backslash. */
function textEnd(text: string, start: number): number {
  let at = start;
  while (at < text.length) {
    if (text[at] === "\\" && text[at + 1] === "\n") at += 2;
    else if (text[at] === "\n") break;
    else at++;
  }
  return at;
}

/** The index of the end of the line `at` is on (the newline, or the end of the text). */
function lineEnd(text: string, at: number): number {
  const end = text.indexOf("\n", at);
  return end === -1 ? text.length : end;
}

/** Whitespace and `;` between sed commands. */
function isBlank(code: number): boolean {
  return code === 59 || code === 32 || (code >= 9 && code <= 13);
}

/** `s/re/replacement/flags`, `y/abc/xyz/`: flags `e` run the result, `w file` writes. Returns the index after it, -1 when it does not close. */
function readSubstitution(text: string, start: number, command: string, reading: RunnerReading): number {
  const delimiter = text[start];
  if (delimiter === undefined || delimiter === "\n" || delimiter === "\\") return -1;
  const middle = closing(text, start + 1, delimiter);
  if (middle < 0) return -1;
  const end = closingReplacement(text, middle + 1, delimiter);
  if (end < 0) return -1;
  let at = end + 1;
  if (command === "y") return at;
  while (at < text.length && /[gpiImMe0-9]/.test(text[at]!)) {
    if (text[at] === "e") reading.problems.push("sed runs the pattern space after a substitution as a command (`s///e`), text only known at run time");
    at++;
  }
  if (text[at] === "w") {
    at++;
    const lineEnd = text.indexOf("\n", at);
    readWrite(text.slice(at, lineEnd === -1 ? text.length : lineEnd).trim(), reading);
    at = lineEnd === -1 ? text.length : lineEnd;
  }
  return at;
}

/** The replacement may hold escaped newlines: only an unescaped delimiter ends it. */
function closingReplacement(text: string, start: number, delimiter: string): number {
  for (let at = start; at < text.length; at++) {
    if (text[at] === "\\") at++;
    else if (text[at] === delimiter) return at;
  }
  return -1;
}

/** `w file`: standard output and error are fine; a file outside the working folder, or one only known at run time, is not read as safe. */
function readWrite(file: string, reading: RunnerReading): void {
  if (file === "/dev/stdout" || file === "/dev/stderr") return;
  if (file === "" || isRunTime(file) || file.startsWith("/") || file.startsWith("~") || file.split("/").includes(".."))
    reading.problems.push(`sed writes the file ${file || "(none named)"} (\`w\`), outside the working folder or unknown`);
}
