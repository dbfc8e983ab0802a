/**
 * Interpreter one-liners whose commands cannot be read from their text (issue #25: the reader refuses what it
 * cannot read). The interpreter reader finds what a one-liner runs by the literal strings it hands to a shell;
 * code that builds what it runs when it runs defeats that: a computed command (`os.system(cmd)`,
 * `system("r"."m -rf ~")`), code evaluated from a value (`exec(bytes.fromhex(…))`, `eval(atob(…))`), a name
 * chosen at run time (`getattr(os, 'sys'+'tem')`, `cp['exe'+'cSync']`, `send(:system, …)`, `$f(…)`), or a
 * runner under another name (`import subprocess as s`, `{ execSync: x } = require(…)`, `f = os.system`).
 * `hiddenCode` names the first such construct; everything else is left to the readers of the literals.
 */

type Language = "python" | "javascript" | "ruby" | "perl" | "php" | "awk";

interface Rules {
  /** Any token the checks below need: most code has none, and then nothing else runs. */
  gate: RegExp;
  /** Calls whose arguments are the command or the code they run: every argument must be read from the text. */
  runners: RegExp;
  /** Whether a runner reached through `receiver` (`os.`, `cp.`, empty for a bare call) is the runner, not another method. */
  isRunner: (name: string, receiver: string, code: string) => boolean;
  /** Calls that pick what they run by a name given as a value. */
  dispatch?: RegExp;
  /** Runners whose name used as a value (`f = os.system`, `map(subprocess.run, …)`) hands them on under another name. */
  asValue?: RegExp;
  /** Ways to reach or rename a runner without a call `runners` sees. */
  indirections: [RegExp, string][];
}

// A literal's place holder in the masked code: `\uE000\uE001`.
const concatenatedMember: [RegExp, string] = [/\[[^[\]]*(?:\uE001\s*\+|\+\s*\uE000)[^[\]]*\]/, "picks a member by a name it concatenates"];
const byReference: [RegExp, string] = [/&\s*\$\w+|&\s*\{|\$\w+\s*->\s*\(|->\s*\$\w+/, "calls a function through a reference"];
const pythonModules = /^(?:(?:os|posix|subprocess|sp|pty|commands)\s*\.\s*)?$/;
const noReceiver = (_name: string, receiver: string) => receiver === "";

const rules: Record<Language, Rules> = {
  python: {
    gate: /eval|exec|compile|system|popen|spawn|Popen|check_|getoutput|getattr|import_module|attrgetter|methodcaller|__|\bas\b|\bfrom\s|\+|\bcall\b|\brun\b|globals|locals|=\s*(?:os|posix|subprocess|shutil|pty)\b/,
    runners: /\b(eval|exec\w*|compile|system|popen\w*|spawn\w*|posix_spawn\w*|Popen|check_output|check_call|getoutput|getstatusoutput|call|run)\s*(\()/g,
    // `re.compile(p)`, `asyncio.run(…)`: methods of other modules; `call`/`run` only as subprocess's.
    isRunner: (name, receiver) => pythonModules.test(receiver) && (receiver !== "" || (name !== "call" && name !== "run")),
    dispatch: /\b(getattr|__getattribute__|attrgetter|methodcaller|import_module|__import__)\s*\(/g,
    asValue: /\b(?:system|popen|exec\w*|spawn\w*|Popen|run|call|check_output|check_call|getoutput|rmtree)\s*(?=[;,)\n}]|$)/g,
    indirections: [
      concatenatedMember,
      [/\bimport\s+[\w., ]*\b(?:os|posix|subprocess|shutil|pty|commands|importlib|builtins)\s+as\b/, "imports a module that runs commands under another name"],
      [
        /\bfrom\s+(?:subprocess|pty|commands|importlib|builtins)\s+import\b|\bfrom\s+(?:os|posix|shutil)\s+import\s+[^;\n]*(?:\*|\bas\b)/,
        "imports functions that run commands under other names",
      ],
      [/\b__builtins__\b|\b(?:globals|locals)\s*\(\s*\)\s*\[/, "reaches a function by a computed name"],
      [/=\s*(?:os|posix|subprocess|shutil|pty)\s*(?=[;\n]|$)/m, "binds a module that runs commands to another name"],
    ],
  },
  javascript: {
    gate: /eval|Function|exec|spawn|fork|require|import|runIn|Command|binding|dlopen|Reflect|global|self|window|\+|rm|remove|unlink/,
    runners: /\b(eval|Function|exec\w*|spawn\w*|fork|require|import|runInThisContext|runInNewContext|runInContext|Command)\s*(\()/g,
    // `/x/.exec(s)`, `obj.fork(…)`: a method of something else, unless the code uses child processes.
    isRunner: (name, receiver, code) => receiver === "" || !/^(?:exec|spawn|fork)/.test(name) || code.includes("child_process"),
    asValue: /\b(?:exec\w*|spawn\w*|fork|rmSync|rm|rmdirSync|removeSync)\s*(?=[;,)\n}]|$)/g,
    indirections: [
      concatenatedMember,
      [
        /\b(?:globalThis|global|window|self)\s*\[|\bprocess\s*\.\s*(?:binding|_linkedBinding|dlopen)\b|\bReflect\s*\.\s*(?:get|apply|construct)\b/,
        "reaches a function by a computed name",
      ],
      [/\{[^{}]*\b(?:exec\w*|spawn\w*|fork|rm\w*|unlink\w*|remove\w*)\s*:\s*[\w$]/, "binds a function that runs commands to another name"],
    ],
  },
  ruby: {
    gate: /eval|exec|system|spawn|open|capture|pipeline|send|method|const_get|IO|\+/,
    runners:
      /\b(eval|instance_eval|class_eval|module_eval|instance_exec|system|exec|spawn|popen\w*|capture[23]\w*|pipeline\w*)(\s*\(|[ \t]+(?=[^\s=;,.)\]}|&+\-*/<>?:{]))/g,
    isRunner: () => true,
    dispatch: /\b(send|public_send|__send__|method|const_get|instance_method)\s*\(/g,
    indirections: [concatenatedMember],
  },
  perl: {
    gate: /eval|system|exec|open|&|->/,
    runners: /\b(eval|system|exec)(\s*\(|[ \t]+(?=[^\s=;,.)\]}|&+\-*/<>?:{]))/g,
    isRunner: noReceiver,
    indirections: [byReference],
  },
  php: {
    gate: /eval|assert|system|exec|passthru|popen|proc_open|call_user_func|create_function|forward_static_call|\$\w+\s*\(/,
    runners: /\b(eval|assert|system|exec|shell_exec|passthru|popen|proc_open|pcntl_exec)\s*(\()/g,
    isRunner: noReceiver,
    dispatch: /\b(call_user_func(?:_array)?|create_function|forward_static_call(?:_array)?)\s*\(/g,
    indirections: [[/(?<![\w$>:])\$\w+\s*\(/, "calls a function whose name is a variable"]],
  },
  awk: {
    gate: /system|\|/,
    runners: /\b(system)\s*(\()/g,
    isRunner: noReceiver,
    indirections: [[/[^|]\|(?![&\s]*(?:\uE000|\||getline\b))[&\s]*\S|(?<![|\uE001])[\w\])]\s*\|\s*getline\b/, "pipes to or from a command it computes"]],
  },
};

// Names a dispatch may spell without hiding anything: a runner, or anything computed, is unknown.
const plainName = /^[A-Za-z_][\w.]*$/;
const runnerName =
  /^(?:system|popen\w*|exec\w*|spawn\w*|Popen|run|call|check_output|check_call|getoutput|rmtree|remove_tree|rm\w*|unlink\w*|remove\w*|eval|\w*_eval|compile|shell_exec|passthru|proc_open|assert|fork|send|public_send|__send__|subprocess|pty|shutil|os|posix|commands|Kernel|IO|Open3|Process|importlib|builtins|__builtins__|__import__)$/;

function languageOf(how: string): Language | undefined {
  const space = how.indexOf(" ");
  const name = space === -1 ? how : how.slice(0, space);
  if (/^(python|pypy)/.test(name)) return "python";
  if (/^(node|nodejs|bun|deno|tsx|ts-node|esno|esrun)$/.test(name)) return "javascript";
  if (name === "ruby" || name === "perl" || name === "php") return name;
  return /^[gmn]?awk$/.test(name) ? "awk" : undefined;
}

/** Why the code's commands cannot be read from its text, or undefined when they can. */
export function hiddenCode(code: string, how: string): string | undefined {
  const language = languageOf(how);
  if (language === undefined) return undefined;
  const { gate, runners, isRunner, dispatch, asValue, indirections } = rules[language];
  if (!gate.test(code)) return undefined;
  if (language === "javascript" && code.includes("child_process") && enumeratedCall.test(code)) return "reaches a function by a computed name";
  // Python and JavaScript one-liners run long (a 10 KB script); the others are read in full.
  if ((language === "python" || language === "javascript") && readAtSight(code, language)) return undefined;
  const { masked, literals } = maskLiterals(code, language);
  const literalsFrom = (at: number) => literals.slice(count(masked, "\uE000", at));
  for (const [pattern, reason] of indirections) if (pattern.test(masked)) return reason;
  if ((language === "perl" || language === "ruby") && opensPipe(masked, literals, pipeOpeners[language])) return "opens a pipe to a command";
  if (asValue && usedAsValue(masked, asValue)) return "binds a function that runs commands to another name";
  if (dispatch)
    for (const match of masked.matchAll(dispatch)) {
      if (/[\w$]/.test(masked[match.index - 1] ?? "")) continue;
      const start = match.index + match[0].length;
      // `getattr(obj, 'name', default)`: the object comes first; the name is what must be read.
      const object = match[1] === "getattr" ? /^\s*[\w.]+\s*,/.exec(masked.slice(start)) : null;
      const from = start + (object?.[0].length ?? 0);
      const names = readArguments(masked, from, true, literalsFrom(from)).names;
      if (names === undefined || names.some((name) => !plainName.test(name) || runnerName.test(name))) return `${match[1]} picks what it runs when it runs`;
    }
  for (const match of masked.matchAll(runners)) {
    const [, name = "", opener = ""] = match;
    const before = masked[match.index - 1] ?? "";
    // `$system(…)`, `$x->exec(…)`, `Foo::system`: a variable or another's method, not the builtin (Perl, PHP, awk).
    if (before === "$" || (isRunner === noReceiver && (before === ">" || before === ":"))) continue;
    const receiver = receiverBefore(masked, match.index);
    if (!isRunner(name, receiver, code)) continue;
    const start = match.index + match[0].length;
    // `eval { … }` (Perl, Ruby) is a block, not a string.
    if (!opener.includes("(") && /^\s*(?:\{|do\b)/.test(masked.slice(start, start + 8))) continue;
    if (!readArguments(masked, start, opener.includes("("), undefined).readable)
      return `${receiver.replace(/\s/g, "")}${name} is given a command or code it builds when it runs`;
  }
  return undefined;
}

/**
 * Whether the code shows at sight that nothing in it hides what it runs, without masking its strings: no
 * indirection or dispatch anywhere in its text (strings included), and every runner named in it is called with
 * only plain literals (`subprocess.run(['git', 'status'])`). Most code is read here; the rest is read in full.
 */
function readAtSight(code: string, language: "python" | "javascript"): boolean {
  if (anyAtSight[language].test(code)) return false;
  for (const match of code.matchAll(rules[language].runners)) {
    plainCall.lastIndex = match.index + match[0].length - 1;
    if (!match[0].endsWith("(") || !plainCall.test(code)) return false;
  }
  return true;
}

// `(…)` holding only quoted literals (no escapes, no interpolation), separated by commas, in at most one list; read from its `(`.
const plainCall = /\(\s*\[?\s*(?:'[^'\\\n]*'|"[^"\\\n$#{}@]*")(?:\s*,\s*(?:'[^'\\\n]*'|"[^"\\\n$#{}@]*"))*\s*\]?\s*\)/y;
// `concatenatedMember` before the strings are masked.
const rawConcatenation = /\[[^[\]]*(?:['"`]\s*\+|\+\s*['"`])[^[\]]*\]/;

/** Every indirection, dispatch and runner-as-value pattern of a language as one, read in one pass over the raw code. */
function atSight({ indirections, dispatch, asValue }: Rules): RegExp {
  const patterns = indirections.map(([pattern]) => (pattern === concatenatedMember[0] ? rawConcatenation : pattern));
  return new RegExp([...patterns, dispatch, asValue].flatMap((pattern) => (pattern === undefined ? [] : [`(?:${pattern.source})`])).join("|"), "m");
}
const anyAtSight = { python: atSight(rules.python), javascript: atSight(rules.javascript) };

/** The `a.b.` (or `Kernel::`, or `require('x').`) before a call at `index`; empty for a bare call. */
function receiverBefore(masked: string, index: number): string {
  return masked.slice(receiverStart(masked, index), index);
}

/** Where the chain of receivers before `index` starts, walking back over `name.`, `name(…).` and `Name::`. */
function receiverStart(masked: string, index: number): number {
  let start = index;
  for (;;) {
    let i = skipSpaceBack(masked, start);
    if (masked[i - 1] === ".") i--;
    else if (masked[i - 1] === ":" && masked[i - 2] === ":") i -= 2;
    else return start;
    i = skipSpaceBack(masked, i);
    if (masked[i - 1] === ")") {
      const open = masked.lastIndexOf("(", i - 1);
      if (open === -1 || masked.slice(open + 1, i - 1).includes(")")) return start;
      i = open;
    }
    const end = i;
    while (i > 0 && /[\w$]/.test(masked[i - 1]!)) i--;
    if (i === end) return start;
    start = i;
  }
}

function skipSpaceBack(masked: string, index: number): number {
  let i = index;
  while (i > 0 && (masked[i - 1] === " " || masked[i - 1] === "\t")) i--;
  return i;
}

/** Whether a runner is named as a value (`f = os.system`, `promisify(cp.exec)`) rather than called. */
function usedAsValue(masked: string, names: RegExp): boolean {
  for (const match of masked.matchAll(names)) {
    if (/[\w$]/.test(masked[match.index - 1] ?? "")) continue;
    const at = skipSpaceBack(masked, receiverStart(masked, match.index));
    if (at === 0 || "=(,:?\n".includes(masked[at - 1]!) || masked.slice(Math.max(0, at - 7), at).endsWith("return")) return true;
  }
  return false;
}

interface Arguments {
  /** Only literals, lists of them, numbers, constants and named options: nothing computed. */
  readable: boolean;
  /** The literal names given, when every argument is one (for dispatch calls); undefined otherwise. */
  names: string[] | undefined;
}

/** Reads the arguments of a call starting at `start` in the masked code. */
/** `literals` are the texts of the literals from `start` on, in order: given only when the names are wanted. */
function readArguments(masked: string, start: number, parenthesised: boolean, literals: readonly string[] | undefined): Arguments {
  const text = parenthesised ? untilClose(masked, start) : masked.slice(start).split(/[;\n}]|\b(?:if|unless|or|and)\b|\|\||&&/, 1)[0]!;
  // Literals side by side (`"rm -rf " "/"` in awk and Python) are joined when the code runs.
  if (/\uE001\s*\uE000/.test(text)) return { readable: false, names: undefined };
  // Most runners are given only literals: `(['git', 'status'])`.
  if (literals === undefined && /^[\s,()[\]\uE000\uE001]*$/.test(text)) return { readable: true, names: undefined };
  const names: string[] = [];
  let literal = 0;
  const reduced = text
    .replace(/\b(?:qw|%[wWiI])\s*(?:\([^)]*\)|\[[^\]]*\]|\{[^}]*\}|<[^>]*>|\/[^/]*\/)/g, " L ")
    .replace(/(?<![\w$])[rRbBuU]{0,2}\uE000\uE001/g, () => {
      names.push(literals?.[literal++] ?? "");
      return " L ";
    })
    .replace(/(?<![\w:]):[A-Za-z_]\w*/g, (symbol) => {
      names.push(symbol.slice(1));
      return " L ";
    })
    // Named options (`check=True`, `shell: true`, `stdio: 'inherit'`): their values do not name the command.
    .replace(/(?<![=!<>.\w$])[A-Za-z_]\w*\s*(?:=(?![=>~])|:(?!:))\s*[^,)}\]]*/g, " ")
    .replace(/\b(?:True|False|None|true|false|null|nil|undefined|PIPE|DEVNULL|STDOUT|subprocess\.(?:PIPE|DEVNULL|STDOUT)|sys\.(?:std\w+|executable))\b/g, " ")
    .replace(/-?\b\d+\b/g, " ");
  const readable = /^[\s,()[\]{}L]*$/.test(reduced) && !/L\s*L/.test(reduced);
  return { readable, names: readable ? names : undefined };
}

/** How many times `char` occurs in `text` before `end`. */
function count(text: string, char: string, end: number): number {
  let found = 0;
  for (let at = text.indexOf(char); at !== -1 && at < end; at = text.indexOf(char, at + 1)) found++;
  return found;
}

/** The text of a parenthesised argument list, to its closing `)`. */
function untilClose(masked: string, start: number): string {
  let depth = 1;
  for (let i = start; i < masked.length; i++) {
    const char = masked.charCodeAt(i);
    if (char === 40 || char === 91 || char === 123) depth++;
    else if ((char === 41 || char === 93 || char === 125) && --depth === 0) return masked.slice(start, i);
  }
  return masked.slice(start);
}

/**
 * The code with each plain string literal replaced by `\uE000\uE001` (its text kept in `literals`, in order), and
 * each interpolating one (`f"…"`, `` `…${x}` ``, `"…#{x}"`, Perl's and PHP's `"…$x"`) by `I`: a string is not
 * code, and an interpolated one is computed.
 */
function maskLiterals(code: string, language: Language): { masked: string; literals: string[] } {
  const literals: string[] = [];
  const interpolates = language === "perl" || language === "php" || language === "ruby";
  let masked = "";
  let last = 0;
  for (let i = nextQuote(code, 0); i !== -1; i = nextQuote(code, last)) {
    const char = code[i]!;
    const j = closingQuote(code, char, i + 1);
    const body = code.slice(i + 1, j);
    const prefix = code[i - 1];
    const interpolated =
      prefix === "f" || prefix === "F" || (body.includes("{") && /\$\{|#\{/.test(body)) || (char !== "'" && interpolates && /[$@][\w{]/.test(body));
    masked += code.slice(last, i) + (interpolated ? " I " : "\uE000\uE001");
    if (!interpolated) literals.push(body);
    last = j + 1;
  }
  masked += code.slice(last);
  // awk's regular expressions (`/a|b/`) are not pipes.
  return { masked: language === "awk" ? masked.replace(/\/(?:\\.|[^/\n\\])*\//g, " R ") : masked, literals };
}

/** The first `'`, `"` or `` ` `` at or after `from`; -1 when there is none. */
function nextQuote(code: string, from: number): number {
  for (let i = from; i < code.length; i++) {
    const char = code.charCodeAt(i);
    if (char === 39 || char === 34 || char === 96) return i;
  }
  return -1;
}

/** Where the literal opened before `from` ends: its next `quote` not escaped by a backslash (or the end). */
function closingQuote(code: string, quote: string, from: number): number {
  let j = code.indexOf(quote, from);
  while (j !== -1) {
    let backslashes = 0;
    while (code.charCodeAt(j - 1 - backslashes) === 92) backslashes++;
    if (backslashes % 2 === 0) return j;
    j = code.indexOf(quote, j + 1);
  }
  return code.length;
}

// Where code uses child processes, a function taken from a module's listed members (`Object.values(cp)[5]`) or
// called from a computed member (`x[i](…)`) may be any of its runners.
const enumeratedCall = /\b(?:Object|Reflect)\s*\.\s*(?:values|entries|ownKeys|getOwnPropertyNames|getOwnPropertyDescriptors?)\s*\(|\]\s*\(/;

// Ruby's `open("|cmd")` and `IO.read("|cmd")` (and its kin) run the command too.
const pipeOpeners = {
  perl: /\bopen\s*(\(?)/g,
  ruby: /(?<![\w.:])(?:(?:Kernel\s*\.\s*)?open|IO\s*\.\s*(?:open|read|readlines|foreach|write|binread|binwrite|new|sysopen))\s*(\(?)/g,
};

/** Perl's `open(F, "|sh")`, `open(F, "cmd |")`, `open(F, "-|", …)`: the file is a command, fed or read when the code runs. */
function opensPipe(masked: string, literals: readonly string[], opener: RegExp): boolean {
  for (const match of masked.matchAll(opener)) {
    const start = match.index + match[0].length;
    const text = match[1] === "(" ? untilClose(masked, start) : masked.slice(start).split(/[;\n]/, 1)[0]!;
    const first = count(masked, "\uE000", start);
    const given = count(text, "\uE000", text.length);
    for (const literal of literals.slice(first, first + given)) if (/^\s*\||\|\s*$|^\s*-\||^\s*\|-/.test(literal)) return true;
  }
  return false;
}
