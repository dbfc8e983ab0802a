import { posix } from "node:path";
import { hiddenCode } from "./hidden-code.js";
import type { Invocation } from "./invocations.js";

/**
 * Interpreter one-liners: `python3 -c`, `node -e`, `ruby -e`, `perl -e`, `php -r`, `deno eval`, `awk`.
 * Their code is not run, only read: the string literals it hands to a shell (`os.system`, `execSync`,
 * backticks, …) are analysed as shell scripts, and its recursive delete calls (`shutil.rmtree`,
 * `fs.rmSync(…, { recursive: true })`, `FileUtils.rm_rf`, `rmtree`, …) become deletes of their target.
 */
export interface InterpreterCode {
  /** How the code is reached, e.g. `python3 -c`. */
  how: string;
  /** The code itself. */
  code: string;
  scripts: string[];
  deletions: CodeDeletion[];
  /** Why what the code runs cannot be read from its text (it builds a command, or a runner's name, when it runs). */
  hidden: string | undefined;
}

/** What a one-liner does besides running shell commands and deleting: asked for by the guard's rules only. */
export interface InterpreterEffects {
  /** How the code is reached, e.g. `python3 -c`. */
  how: string;
  /** Files the code opens for writing (or copies, moves or appends onto), when it spells the path out. */
  writes: CodeWrite[];
  /** The code forks (or starts itself again) in an endless loop: a fork bomb. */
  forkBomb: boolean;
}

export interface CodeWrite {
  /** The path written, as the code spells it (`~` for the home folder). */
  target: string;
  /** The call as written, for messages. */
  call: string;
}

export interface CodeDeletion {
  /** The path it deletes; undefined when the code computes it. */
  target: string | undefined;
  recursive: boolean;
  /** The call as written, for messages. */
  call: string;
}

const python = /^(python(\d+(\.\d+)*)?|pypy\d*)$/;
const javascript = new Set(["node", "nodejs", "bun", "deno", "tsx", "ts-node", "esno", "esrun"]);
const awk = new Set(["awk", "gawk", "mawk", "nawk"]);

export function analyzeInterpreter(invocation: Invocation, stdin: () => string[]): InterpreterCode | undefined {
  const found = codeOf(invocation, stdin);
  if (!found) return undefined;
  const { how, code } = found;
  const text = code.join("\n");
  if (text.trim() === "") return undefined;
  return { how, code: text, scripts: shellScriptsIn(text), deletions: deletionsIn(text), hidden: hiddenCode(text, how) };
}

/** The files a one-liner writes and whether it is a fork bomb; undefined when the invocation runs no code. */
export function interpreterEffects(invocation: Invocation, stdin: () => string[]): InterpreterEffects | undefined {
  const found = codeOf(invocation, stdin);
  if (!found) return undefined;
  const text = found.code.join("\n");
  if (text.trim() === "") return undefined;
  return { how: found.how, writes: writesIn(text, found.how), forkBomb: isForkBomb(text) };
}

interface FoundCode {
  how: string;
  code: string[];
}

// The flags that take the code as their next word.
const pythonFlag = /^-[BEIOsSuqvb]*c$/;
const javascriptFlag = /^(-e|-p|-pe|--eval|--print)$/;
const rubyFlag = /^-[a-zA-Z]*e$/;
const perlFlag = /^-[a-zA-Z]*[eE]$/;
const phpFlag = /^-r$/;
const inlineCode = /^--(eval|print)=(.*)$/s;

/**
 * Whether a command of this name can carry code `interpreterEffects` reads. `codeOf` asks it first, so a
 * reader added below without its name here reads nothing, and that reader's own tests say so.
 */
export function mayCarryCode(name: string): boolean {
  return python.test(name) || javascript.has(name) || awk.has(name) || name === "ruby" || name === "perl" || name === "php";
}

function codeOf(invocation: Invocation, stdin: () => string[]): FoundCode | undefined {
  const { name, args } = invocation;
  if (!mayCarryCode(name)) return undefined;
  if (python.test(name)) return flagged(invocation, pythonFlag, "-c") ?? fromStdin(invocation, stdin);
  if (javascript.has(name)) {
    if (name === "deno" && args[0] === "eval")
      return {
        how: "deno eval",
        code: args
          .slice(1)
          .filter((arg) => !arg.startsWith("-"))
          .slice(0, 1),
      };
    return flagged(invocation, javascriptFlag, "-e") ?? (name === "node" ? fromStdin(invocation, stdin) : undefined);
  }
  if (name === "ruby") return flagged(invocation, rubyFlag, "-e") ?? fromStdin(invocation, stdin);
  if (name === "perl") return flagged(invocation, perlFlag, "-e") ?? fromStdin(invocation, stdin);
  if (name === "php") return flagged(invocation, phpFlag, "-r") ?? fromStdin(invocation, stdin);
  if (awk.has(name)) {
    const program = programOfAwk(args);
    return program === undefined ? undefined : { how: name, code: [program] };
  }
  return undefined;
}

/** The code given after a `flag` (`-c code`) or inline (`--eval=code`). */
function flagged({ name, args }: Invocation, flag: RegExp, label: string): FoundCode | undefined {
  const code: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    const inline = inlineCode.exec(arg);
    if (inline) code.push(inline[2]!);
    else if (flag.test(arg) && args[index + 1] !== undefined) code.push(args[++index]!);
  }
  return code.length > 0 ? { how: `${name} ${label}`, code } : undefined;
}

/** The code read from standard input, when no word names a script file, or the script is `-` (`python3 - arg <<< code`). */
function fromStdin({ name, args }: Invocation, stdin: () => string[]): FoundCode | undefined {
  const script = args.find((arg) => arg === "-" || !arg.startsWith("-"));
  return script === undefined || script === "-" ? { how: `${name} (stdin)`, code: stdin() } : undefined;
}

function programOfAwk(args: readonly string[]): string | undefined {
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (arg === "-f") return undefined;
    if (arg === "-F" || arg === "-v") index++;
    else if (!arg.startsWith("-")) return arg;
  }
  return undefined;
}

// Calls that hand a string to a shell or run a program, in Python, JavaScript, Ruby, Perl, PHP and awk.
const shellOut =
  /\b(?:os\.(?:system|popen|exec\w*|spawn\w*)|subprocess\.\w+|commands\.getoutput|pty\.spawn|system|exec(?:Sync|File|FileSync)?|spawn(?:Sync)?|shell_exec|passthru|popen|proc_open|IO\.popen|Open3\.\w+|Deno\.Command|Deno\.run|Kernel\.exec)\s*[(\s'"`[]|`|%x[^\w\s]|\bqx\s*[^\w\s]|Bun\.\$/;

/** The shell command lines the code runs: each string literal, and each list of them as an argv. */
function shellScriptsIn(code: string): string[] {
  if (!shellOut.test(code)) return [];
  const literals = stringLiterals(code);
  // A one-word literal runs at most a program without arguments; each distinct script is read once.
  const scripts = new Set<string>();
  // `/\S\s+\S/` is `/\s/.test(value.trim())` without a copy of each literal.
  for (const { value } of literals) if (/\S\s+\S/.test(value)) scripts.add(value);
  for (const body of quotedCommands(code)) scripts.add(body);
  // Literals with only commas between (`['rm', '-rf', path]`) are an argv: `literals[first…index)` is one.
  let first = 0;
  for (let index = 1; index <= literals.length; index++) {
    if (index < literals.length && /^\s*,\s*\[?\s*$/.test(code.slice(literals[index - 1]!.end, literals[index]!.start))) continue;
    if (index - first > 1) scripts.add(commandLine(literals.slice(first, index)));
    first = index;
  }
  return [...scripts];
}

// Perl's `qx{…}` and Ruby's `%x(…)`, with any of their delimiters: the body is a shell command line.
const quotedCommand = /(?:\bqx|%x)\s*(?:\{([^}]*)\}|\(([^)]*)\)|\[([^\]]*)\]|<([^>]*)>|([^\w\s])(.*?)\5)/gs;

function quotedCommands(code: string): string[] {
  if (!code.includes("qx") && !code.includes("%x")) return [];
  return [...code.matchAll(quotedCommand)].map((match) => match[1] ?? match[2] ?? match[3] ?? match[4] ?? match[6] ?? "");
}

/** An argv of literals as the command line a shell would read. */
function commandLine(argv: readonly Literal[]): string {
  return argv.map((literal) => quote(literal.value)).join(" ");
}

function quote(part: string): string {
  return /^[\w@%+=:,./-]+$/.test(part) ? part : `'${part.replaceAll("'", `'\\''`)}'`;
}

interface Literal {
  value: string;
  start: number;
  end: number;
}

/** String literals: `'…'`, `"…"`, `` `…` ``, `'''…'''`, `"""…"""`; interpolations become an unknown `$__code`. */
function stringLiterals(code: string): Literal[] {
  const literals: Literal[] = [];
  let i = 0;
  while (i < code.length) {
    const char = code[i]!;
    if (char !== "'" && char !== '"' && char !== "`") {
      i++;
      continue;
    }
    const triple = char !== "`" && code[i + 1] === char && code[i + 2] === char;
    const delimiter = triple ? char.repeat(3) : char;
    const before = code[i - 1];
    const interpolated = char === "`" || before === "f" || before === "F" || (char === '"' && /[#$]\{/.test(code.slice(i, code.indexOf('"', i + 1))));
    let j = i + delimiter.length;
    let value = "";
    // Runs of characters between escapes are taken as one slice, not one character at a time.
    let run = j;
    const closer = delimiter.length === 1 ? delimiter.charCodeAt(0) : -1;
    while (j < code.length && (closer === -1 ? !code.startsWith(delimiter, j) : code.charCodeAt(j) !== closer)) {
      if (code.charCodeAt(j) === 92 && j + 1 < code.length) {
        const [decoded, length] = readEscape(code, j);
        value += code.slice(run, j) + decoded;
        j += length;
        run = j;
      } else {
        j++;
      }
    }
    value += code.slice(run, Math.min(j, code.length));
    if (interpolated) value = value.replace(/[$#]?\{[^}]*\}/g, "$__code");
    literals.push({ value, start: i, end: j + delimiter.length });
    i = j + delimiter.length;
  }
  return literals;
}

/** One escape sequence at `at` (a backslash): `\n`, `\t`, `\x20`, `\040`, `\u0020`, or the character itself. */
function readEscape(code: string, at: number): [string, number] {
  const next = code[at + 1]!;
  if (next === "n") return ["\n", 2];
  if (next === "t") return ["\t", 2];
  const hex = /^x([0-9a-fA-F]{2})|^u([0-9a-fA-F]{4})/.exec(code.slice(at + 1, at + 6));
  if (hex) return [String.fromCharCode(parseInt(hex[1] ?? hex[2]!, 16)), hex[0].length + 1];
  const octal = /^[0-7]{3}/.exec(code.slice(at + 1, at + 4));
  if (octal) return [String.fromCharCode(parseInt(octal[0], 8)), 4];
  return [next, 2];
}

// Recursive deletes: the call name, and whether it deletes recursively without being told to.
const deleteCalls: [RegExp, boolean][] = [
  // Perl calls them without parentheses too: `rmtree $ENV{HOME}`, `remove_tree "/x"`.
  [/\b(?:shutil\.)?rmtree(?:\s*\(|[ \t]+(?=[$'"]))/g, true],
  [/\bremove_tree(?:\s*\(|[ \t]+(?=[$'"]))/g, true],
  [/\bFileUtils\.(?:rm_rf|rm_r|remove_dir|remove_entry|remove_entry_secure|rmtree)\b\s*\(?/g, true],
  [/\brimraf(?:Sync)?\s*\(/g, true],
  [/\b(?:fse|fsExtra|fs)\.(?:remove|removeSync|emptyDir|emptyDirSync)\s*\(/g, true],
  [/\b(?:rmSync|rmdirSync|rm|rmdir)\s*\(/g, false],
  [/\bDeno\.remove(?:Sync)?\s*\(/g, false],
];

// Single-file deletes: harmless in the project, but not of `/etc/passwd`.
const fileDeleteCalls = /\b(?:os\.(?:remove|unlink)|unlinkSync|fs\.unlink|fsp\.unlink|File\.delete|FileUtils\.rm|unlink)\s*\(/g;

const maxCalls = 64;

// Any of the delete calls below: most code has none, so the patterns need not run.
const anyDeleteCall =
  /rmtree|remove_tree|rm_rf|rm_r\b|remove_dir|remove_entry|rimraf|\.remove|emptyDir|rmSync|rmdir|\brm\s*\(|Deno\.remove|unlink|File\.delete/;

function deletionsIn(code: string): CodeDeletion[] {
  if (!anyDeleteCall.test(code)) return [];
  const deletions: CodeDeletion[] = [];
  for (const match of firstMatches(code, fileDeleteCalls)) {
    const start = match.index + match[0].length;
    const args = callArguments(code, start, true);
    const target = evaluatePath((splitTopLevel(args)[0] ?? "").trim());
    if (target !== undefined) deletions.push({ target, recursive: false, call: code.slice(match.index, start + args.length + 1).trim() });
  }
  for (const [pattern, recursive] of deleteCalls) {
    const matches = [...code.matchAll(pattern)];
    // Past the cap the targets go unread: one unknown target stands for them, so a forced delete is refused.
    if (matches.length > maxCalls) deletions.push({ target: undefined, recursive: true, call: `${matches.length} delete calls` });
    for (const match of matches.slice(0, maxCalls)) {
      const start = match.index + match[0].length;
      const args = callArguments(code, start, match[0].endsWith("("));
      const call = code.slice(match.index, Math.min(code.length, start + args.length + 1)).trim();
      const isRecursive = recursive || mayRecurse(splitTopLevel(args).slice(1).join(",").trim());
      if (!isRecursive) continue;
      const first = splitTopLevel(args)[0] ?? "";
      deletions.push({ target: evaluatePath(first.trim()), recursive: true, call });
    }
  }
  return deletions;
}

/**
 * Whether the options of a delete that recurses only when told to (`fs.rmSync(p, options)`) may tell it to:
 * `{ recursive: true }`, `{ recursive }`, `{ recursive: !0 }`, or options only known when the code runs (`o`, `{ ...o }`).
 * A callback (`(err) => …`, `function …`) or `{ recursive: false }` does not.
 */
function mayRecurse(options: string): boolean {
  if (options === "" || /^(?:\([^)]*\)\s*=>|[\w$]+\s*=>|function\b|async\b)/.test(options)) return false;
  if (!/^\{[^{}]*\}$/.test(options) || options.includes("...")) return true;
  return /\brecursive\b/.test(options) && !/\brecursive\s*[:=]>?\s*(?:false|False|0|null|undefined|nil)\b/.test(options);
}

/** The argument text of a call: up to the closing `)`, or to the end of the statement without parentheses. */
function callArguments(code: string, start: number, parenthesised: boolean): string {
  if (!parenthesised) {
    const end = code.slice(start).search(/[;\n]/);
    return end === -1 ? code.slice(start) : code.slice(start, start + end);
  }
  let depth = 1;
  for (let i = start; i < code.length; i++) {
    const char = code[i]!;
    if (char === "'" || char === '"' || char === "`") {
      const end = code.indexOf(char, i + 1);
      i = end === -1 ? code.length : end;
    } else if (char === "(" || char === "[" || char === "{") depth++;
    else if ((char === ")" || char === "]" || char === "}") && --depth === 0) return code.slice(start, i);
  }
  return code.slice(start);
}

function splitTopLevel(args: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let last = 0;
  for (let i = 0; i < args.length; i++) {
    const char = args[i]!;
    if (char === "'" || char === '"' || char === "`") {
      const end = args.indexOf(char, i + 1);
      i = end === -1 ? args.length : end;
    } else if (char === "(" || char === "[" || char === "{") depth++;
    else if (char === ")" || char === "]" || char === "}") depth--;
    else if (char === "," && depth === 0) {
      parts.push(args.slice(last, i));
      last = i + 1;
    }
  }
  parts.push(args.slice(last));
  return parts;
}

const homeExpressions =
  /^(?:(?:pathlib\.)?Path\.home\(\)|(?:require\(\s*['"](?:node:)?os['"]\s*\)|os)\.homedir\(\)|Dir\.home|ENV\[\s*['"]HOME['"]\s*\]|os\.environ\[\s*['"]HOME['"]\s*\]|os\.environ\.get\(\s*['"]HOME['"]\s*\)|os\.getenv\(\s*['"]HOME['"]\s*\)|process\.env\.HOME|process\.env\[\s*['"]HOME['"]\s*\]|\$ENV\{\s*['"]?HOME['"]?\s*\}|Deno\.env\.get\(\s*['"]HOME['"]\s*\))$/;

/** The path an expression denotes, when the code spells it out; `~` stands for the home folder. */
function evaluatePath(expression: string): string | undefined {
  const text = expression.trim();
  if (homeExpressions.test(text)) return "~";
  const literal = /^[rRbBuU]?(['"`])(.*)\1$/s.exec(text);
  if (literal && !(literal[1] === "`" && literal[2]!.includes("${")) && !literal[2]!.includes(literal[1]!)) return literal[2];
  const expandUser = /^os\.path\.expanduser\(\s*(['"])(~[^'"]*)\1\s*\)$/.exec(text);
  if (expandUser) return expandUser[2];
  const wrapped =
    /^(?:(?:pathlib\.)?Path|Pathname(?:\.new)?|File\.expand_path|os\.path\.abspath|os\.path\.realpath|path\.resolve|path\.normalize)\s*\((.*)\)$/s.exec(text);
  if (wrapped && splitTopLevel(wrapped[1]!).length === 1) return evaluatePath(wrapped[1]!);
  const joined = /^(?:os\.path\.join|path\.join|path\.resolve|File\.join|path\.posix\.join)\s*\((.*)\)$/s.exec(text);
  if (joined) {
    const parts = splitTopLevel(joined[1]!).map(evaluatePath);
    if (parts.every((part): part is string => part !== undefined)) return posix.join(...parts);
  }
  return undefined;
}

// Calls that write a file: the call, which argument is the path, and which (if any) is the mode that must say "write".
interface WriteCall {
  pattern: RegExp;
  path: number;
  mode?: number;
  /** Literal text every match holds: most code has none, and this finds that sooner than `pattern`. */
  gate?: RegExp;
}

const writeCalls: WriteCall[] = [
  // Python, Ruby, PHP, JavaScript: open with a mode that writes, appends, creates or updates.
  {
    pattern: /\b(?:io\.open|codecs\.open|open|File\.open|File\.new|IO\.sysopen|fopen|(?:fs\.)?openSync|fs\.open|fsp\.open|fs\.promises\.open)\s*\(/g,
    path: 0,
    mode: 1,
  },
  { pattern: /\bos\.open\s*\(/g, path: 0, mode: 1 },
  // Calls that always write their first argument.
  {
    pattern:
      /\b(?:(?:fs|fsp|fse|fsExtra|fs\.promises)\.)?(?:writeFileSync|appendFileSync|writeFile|appendFile|createWriteStream|truncateSync|truncate|outputFileSync|outputFile|writeJsonSync|writeJson)\s*\(|\b(?:File|IO)\.(?:write|binwrite|truncate)\s*\(|\bFileUtils\.touch\s*\(?|\bfile_put_contents\s*\(|\bDeno\.(?:writeTextFile|writeFile|truncate)(?:Sync)?\s*\(|\bBun\.write\s*\(|\bos\.truncate\s*\(/g,
    path: 0,
    // `rite` is in write and Write.
    gate: /rite|append|truncate|outputFile|touch|file_put_contents/,
  },
  // Calls that write their second argument: copies and moves.
  {
    pattern:
      /\b(?:shutil\.(?:copy\w*|move)|os\.(?:rename|replace|link|symlink)|(?:fs\.)?(?:copyFileSync|copyFile|cpSync|renameSync|rename|linkSync|symlinkSync)|FileUtils\.(?:cp_r|cp|mv|copy|move|install|ln_sf|ln_s)|File\.(?:rename|symlink|link)|copy|Deno\.(?:copyFile|rename)(?:Sync)?)\s*\(?/g,
    path: 1,
  },
];

// Perl's open: `open(FH, ">", $path)` or `open(FH, ">$path")`, with or without parentheses; `sysopen` with O_WRONLY.
const perlOpen = /\b(?:open|sysopen)\b\s*\(?/g;
const pathMethods = /\b(?:pathlib\.)?Path\s*\(\s*([rRbBuU]?(['"])[^'"]*\2)\s*\)\s*\.\s*(write_text|write_bytes|touch|open\s*\(\s*(['"])[^'"]*[wax+][^'"]*\4)/g;
const awkRedirect = /\b(?:print|printf)\b[^;}\n]*?>>?\s*(['"])([^'"]+)\1/g;
const anyWrite = /open|write|Write|append|copy|cp|mv|move|rename|replace|link|truncate|touch|file_put_contents|Bun\.write|FileUtils|print/;

/**
 * The first `limit` matches of a global pattern. Unlike `[...matchAll()].slice()`, it neither copies
 * the pattern nor reads past the last match it keeps: a 10 KB one-liner has hundreds of calls.
 */
function firstMatches(code: string, pattern: RegExp, limit = maxCalls): RegExpExecArray[] {
  const found: RegExpExecArray[] = [];
  pattern.lastIndex = 0;
  for (let match = pattern.exec(code); match !== null && found.length < limit; match = pattern.exec(code)) found.push(match);
  pattern.lastIndex = 0;
  return found;
}

/** The files the code writes, by the literal paths it names. */
function writesIn(code: string, how: string): CodeWrite[] {
  if (!anyWrite.test(code)) return [];
  const writes: CodeWrite[] = [];
  const perl = how.startsWith("perl");
  for (const { pattern, path, mode, gate } of writeCalls) {
    if ((perl && mode !== undefined) || (gate !== undefined && !gate.test(code))) continue;
    for (const match of firstMatches(code, pattern)) {
      const start = match.index + match[0].length;
      const parenthesised = match[0].trimEnd().endsWith("(");
      // Only the mode is trimmed here: evaluatePath trims the path itself.
      const args = splitTopLevel(callArguments(code, start, parenthesised));
      if (mode !== undefined && !writingMode(args[mode]?.trim())) continue;
      addWrite(writes, evaluatePath(args[path] ?? ""), code.slice(match.index, start + 40));
    }
  }
  if (perl) {
    for (const match of firstMatches(code, perlOpen)) {
      const start = match.index + match[0].length;
      const args = splitTopLevel(callArguments(code, start, match[0].endsWith("("))).map((arg) => arg.trim());
      const call = code.slice(match.index, start + 40);
      const second = evaluatePath(args[1] ?? "");
      if (match[0].startsWith("sysopen")) {
        if (/O_(WRONLY|RDWR|CREAT|TRUNC|APPEND)/.test(args[2] ?? "")) addWrite(writes, evaluatePath(args[1] ?? ""), call);
      } else if (second !== undefined && /^\s*(\+?>>?|\+<)\s*$/.test(second)) addWrite(writes, evaluatePath(args[2] ?? ""), call);
      else if (second !== undefined && /^\s*(\+?>>?|\+<)/.test(second)) addWrite(writes, second.replace(/^\s*(\+?>>?|\+<)\s*/, ""), call);
    }
  }
  // Every such call names `Path`: most code has none, so the pattern need not run.
  if (code.includes("Path")) for (const match of firstMatches(code, pathMethods, Number.POSITIVE_INFINITY)) addWrite(writes, evaluatePath(match[1]!), match[0]);
  if (how.endsWith("awk") || firstWord(how).endsWith("awk")) for (const match of code.matchAll(awkRedirect)) addWrite(writes, match[2], match[0]);
  return writes;
}

/** `text.split(" ")[0]` without the list. */
function firstWord(text: string): string {
  const space = text.indexOf(" ");
  return space === -1 ? text : text.slice(0, space);
}

function addWrite(writes: CodeWrite[], target: string | undefined, call: string): void {
  if (target !== undefined && writes.length < maxCalls) writes.push({ target, call: call.trim() });
}

/** A mode argument that writes: `'w'`, `'a'`, `'r+'`, `'x'`, `'wb'`, `mode='w'`, `os.O_WRONLY`, `fs.constants.O_RDWR`, `File::WRONLY`. */
function writingMode(argument: string | undefined): boolean {
  if (argument === undefined) return false;
  const text = argument.replace(/^mode\s*=\s*/, "");
  if (/O_(WRONLY|RDWR|CREAT|TRUNC|APPEND)|File::(WRONLY|RDWR|CREAT|TRUNC|APPEND)|\b(WRONLY|RDWR|CREAT|TRUNC|APPEND)\b/.test(text)) return true;
  const literal = /^[rRbBuU]?(['"`])([^'"`]*)\1$/.exec(text);
  return literal !== null && /[wax+]/.test(literal[2]!);
}

// Something that starts a process: a fork, or the interpreter starting itself (or this script) again.
const forkCall =
  /\bos\.fork(?:pty)?\s*\(|\bpcntl_fork\s*\(|\bProcess\.fork\b|\bfork\s*\(|(?:^|[\s;{(])fork(?=\s|;|$|\}|\))|\b(?:spawn|spawnSync|exec|execSync|execFile|execFileSync)\s*\(\s*(?:process\.(?:argv0|execPath|argv\s*\[\s*[01]\s*\])|__filename)|\bsubprocess\.Popen\s*\(\s*\[?\s*sys\.(?:executable|argv)|\bmultiprocessing\.Process\s*\(|\bos\.(?:spawn\w*|exec\w*)\s*\(\s*\w*\s*,?\s*sys\.executable|\bos\.system\s*\(\s*sys\.argv/;
// A loop that never ends on its own.
const endlessLoop =
  /\bwhile\s*\(?\s*(?:True|true|1|!0|:|fork\b|os\.fork)|\bfor\s*\(\s*;\s*;\s*\)|\bloop\s*(?:\{|do\b)|\buntil\s*\(?\s*(?:false|0)\b|\bsetInterval\s*\(|\bitertools\.count\b|\bfork\s+while\b|\bwhile\s*\(?\s*fork|\bredo\b|\bfor\s+\w+\s+in\s+iter\s*\(\s*int\s*,\s*1\s*\)/;

/** Code that forks in an endless loop (`while True: os.fork()`, `fork while fork`, `loop { fork }`, `for(;;) fork()`). */
function isForkBomb(code: string): boolean {
  if (!/fork|spawn|exec|Process|system/.test(code)) return false;
  // A `\n` written into a one-liner (`python -c "import os\nwhile True: os.fork()"`) stands for a line break.
  const text = code.includes("\\n") ? code.replaceAll("\\n", "\n") : code;
  return forkCall.test(text) && endlessLoop.test(text);
}
