import type { Invocation } from "../invocations.js";
import { letters, names, readArguments, type Grammar } from "./options.js";
import { addCode, addUnread, type RunnerReading } from "./reading.js";

/**
 * awk runs commands through pipes (`print … | "cmd"`, `"cmd" | getline`, gawk's `|&`) besides `system()`,
 * which the interpreter reader already follows. A pipe to a literal command hands that command on; a pipe
 * to a computed one is unknown. A program from a file (`-f`), an include or an extension is unknown too.
 */
const grammar: Grammar = {
  program: "awk",
  abbreviate: true,
  short: {
    ...letters("bcCgMnNOPrsStVhy", "FvWd"),
    f: { arity: "required", runs: "unknown" },
    e: { arity: "required" },
    E: { arity: "required", runs: "unknown" },
    i: { arity: "required", runs: "unknown" },
    l: { arity: "required", runs: "unknown" },
    D: { arity: "optional" },
    L: { arity: "optional" },
    o: { arity: "optional" },
    p: { arity: "optional" },
  },
  long: {
    ...names(
      "characters-as-bytes traditional copyright gen-pot csv bignum use-lc-numeric non-decimal-data optimize no-optimize posix re-interval sandbox trace version help",
      "field-separator assign source",
      "debug lint dump-variables pretty-print profile",
    ),
    file: { arity: "required", runs: "unknown" },
    exec: { arity: "required", runs: "unknown" },
    include: { arity: "required", runs: "unknown" },
    load: { arity: "required", runs: "unknown" },
  },
};

export function readAwk(invocation: Invocation, reading: RunnerReading): void {
  const read = readArguments(invocation.args, { ...grammar, program: invocation.name });
  reading.problems.push(...read.problems);
  const programs: string[] = [];
  let sandbox = false;
  for (const option of read.options) {
    if (option.name === "--sandbox") sandbox = true;
    if (option.spec.runs === "unknown" && option.value !== undefined) addUnread(reading, `${invocation.name} ${option.name}`, `the program in ${option.value}`);
    if ((option.name === "-e" || option.name === "--source") && option.value !== undefined) programs.push(option.value);
  }
  if (programs.length === 0 && !read.options.some((option) => option.spec.runs === "unknown") && read.operands[0] !== undefined)
    programs.push(read.operands[0]);
  if (sandbox) return;
  for (const program of programs) readPipes(program, invocation.name, reading);
}

// Commands that run what they read: a shell or an interpreter, by its first word.
const readsCode =
  /^\s*(?:\S*\/)?(?:sh|bash|zsh|dash|ksh|mksh|ash|fish|csh|tcsh|yash|python[\d.]*|perl|ruby|node|php|awk|gawk|mawk|sed|xargs|env|sudo|eval|source)(?:\s|$)/;

// Characters after which `/` starts a regular expression rather than a division.
const beforeRegex = new Set(["", "(", ",", "~", "!", "{", "}", ";", "&", "|", "\n", "?", ":"]);

/** Walks the program past strings and regular expressions, and reads each `|` that is not `||`. */
function readPipes(program: string, awk: string, reading: RunnerReading): void {
  if (/@(load|include)\b/.test(program)) addUnread(reading, awk, "an extension or file named in @load/@include");
  let previous = "";
  let lastString: string | undefined;
  for (let at = 0; at < program.length; at++) {
    const char = program[at]!;
    if (char === '"') {
      const end = closing(program, at + 1, '"');
      lastString = program.slice(at + 1, end).replace(/\\(.)/g, "$1");
      at = end;
      previous = '"';
      continue;
    }
    if (char === "/" && beforeRegex.has(previous)) {
      at = closing(program, at + 1, "/");
      previous = "/";
      continue;
    }
    if (char === "|" && program[at + 1] === "|") {
      at++;
      previous = "|";
      continue;
    }
    if (char === "|") {
      const rest = program.slice(at + 1).replace(/^&?\s*/, "");
      if (rest.startsWith("getline")) {
        if (previous === '"' && lastString !== undefined) addCode(reading, lastString, `${awk} "…" | getline`);
        else reading.problems.push(`${awk} reads the output of a command computed at run time (\`… | getline\`)`);
      } else {
        const target = /^"((?:[^"\\]|\\.)*)"/.exec(rest);
        const command = target === null ? undefined : target[1]!.replace(/\\(.)/g, "$1");
        if (command === undefined) reading.problems.push(`${awk} pipes into a command computed at run time (\`print … | cmd\`)`);
        else {
          addCode(reading, command, `${awk} print | "…"`);
          // `print "rm -rf ~" | "sh"`: what is printed into a shell or an interpreter is code.
          if (readsCode.test(command)) {
            if (previous === '"' && lastString !== undefined) addCode(reading, lastString, `${awk} print | "${command}"`);
            else reading.problems.push(`${awk} prints text computed at run time into ${command}, which runs it`);
          }
        }
      }
    }
    if (!/\s/.test(char)) previous = char;
  }
}

function closing(text: string, start: number, delimiter: string): number {
  for (let at = start; at < text.length; at++) {
    if (text[at] === "\\") at++;
    else if (text[at] === delimiter) return at;
  }
  return text.length;
}
