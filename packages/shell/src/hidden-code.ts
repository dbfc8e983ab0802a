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
  /** Calls whose arguments are the command or the code they run: every argument must be read from the text. */
  runners: RegExp;
  /** Calls that pick what they run by a name given as a value. */
  dispatch?: RegExp;
  /** Ways to reach or rename a runner without a call `runners` sees. */
  indirections: [RegExp, string][];
}

const concatenatedMember: [RegExp, string] = [/\[[^[\]]*(?:\uE000\s*\+|\+\s*\uE000)[^[\]]*\]/, "picks a member by a name it concatenates"];
const byReference: [RegExp, string] = [/&\s*\$\w+|&\s*\{|\$\w+\s*->\s*\(|->\s*\$\w+/, "calls a function through a reference"];
// A runner's name used as a value (`f = os.system`, `map(subprocess.run, …)`), not called where it is named.
const runnerAsValue = (names: string): [RegExp, string] => [
  new RegExp(String.raw`(?:^|[=(,:?]|\breturn\b)\s*(?:[\w$]+(?:\([^()]*\))?\s*\.\s*)*(?:${names})\s*(?=[;,)\n}]|$)`, "m"),
  "binds a function that runs commands to another name",
];

const rules: Record<Language, Rules> = {
  python: {
    runners:
      /(?<![\w.])((?:(?:os|posix|subprocess|sp|pty|commands)\s*\.\s*)?)(eval|exec\w*|compile|system|popen\w*|spawn\w*|posix_spawn\w*|Popen|check_output|check_call|getoutput|getstatusoutput|(?<=\.\s*)(?:call|run))\s*(\()/g,
    dispatch: /(?<![\w$])(getattr|__getattribute__|attrgetter|methodcaller|import_module|__import__)\s*\(/g,
    indirections: [
      concatenatedMember,
      [/\bimport\s+[\w., ]*\b(?:os|posix|subprocess|shutil|pty|commands|importlib|builtins)\s+as\b/, "imports a module that runs commands under another name"],
      [
        /\bfrom\s+(?:subprocess|pty|commands|importlib|builtins)\s+import\b|\bfrom\s+(?:os|posix|shutil)\s+import\s+[^;\n]*(?:\*|\bas\b)/,
        "imports functions that run commands under other names",
      ],
      [/\b__builtins__\b|\b(?:globals|locals)\s*\(\s*\)\s*\[/, "reaches a function by a computed name"],
      runnerAsValue("system|popen|exec\\w*|spawn\\w*|Popen|run|call|check_output|check_call|getoutput|rmtree"),
      [/=\s*(?:os|posix|subprocess|shutil|pty)\s*(?=[;\n]|$)/m, "binds a module that runs commands to another name"],
    ],
  },
  javascript: {
    runners:
      /(?<![\w$])((?:[\w$]+\s*\.\s*)*)(eval|Function|exec\w*|spawn\w*|fork|require|import|runInThisContext|runInNewContext|runInContext|Command)\s*(\()/g,
    indirections: [
      concatenatedMember,
      [
        /\b(?:globalThis|global|window|self)\s*\[|\bprocess\s*\.\s*(?:binding|_linkedBinding|dlopen)\b|\bReflect\s*\.\s*(?:get|apply|construct)\b/,
        "reaches a function by a computed name",
      ],
      [/\{[^{}]*\b(?:exec\w*|spawn\w*|fork|rm\w*|unlink\w*|remove\w*)\s*:\s*[\w$]/, "binds a function that runs commands to another name"],
      runnerAsValue("exec\\w*|spawn\\w*|fork|rmSync|rm|rmdirSync|removeSync"),
    ],
  },
  ruby: {
    runners:
      /(?<![\w$])((?:[\w$:]+\s*\.\s*)*)(eval|instance_eval|class_eval|module_eval|instance_exec|system|exec|spawn|popen\w*|capture[23]\w*|pipeline\w*)(\s*\(|[ \t]+(?=[^\s=;,.)\]}|&+\-*/<>?:{]))/g,
    dispatch: /(?<![\w$])(send|public_send|__send__|method|const_get|instance_method)\s*\(/g,
    indirections: [concatenatedMember],
  },
  perl: {
    runners: /(?<![\w$])()(eval|system|exec)(\s*\(|[ \t]+(?=[^\s=;,.)\]}|&+\-*/<>?:{]))/g,
    indirections: [byReference],
  },
  php: {
    runners: /(?<![\w$>:])()(eval|assert|system|exec|shell_exec|passthru|popen|proc_open|pcntl_exec)\s*(\()/g,
    dispatch: /(?<![\w$])(call_user_func(?:_array)?|create_function|forward_static_call(?:_array)?)\s*\(/g,
    indirections: [[/(?<![\w$>:])\$\w+\s*\(/, "calls a function whose name is a variable"]],
  },
  awk: {
    runners: /(?<![\w$])()(system)\s*(\()/g,
    indirections: [[/[^|]\|(?![&\s]*(?:\uE000|\||getline\b))[&\s]*\S|(?<![|\uE000])[\w\])]\s*\|\s*getline\b/, "pipes to or from a command it computes"]],
  },
};

// Names a dispatch may spell without hiding anything: a runner, or anything computed, is unknown.
const plainName = /^[A-Za-z_][\w.]*$/;
const runnerName =
  /^(?:system|popen\w*|exec\w*|spawn\w*|Popen|run|call|check_output|check_call|getoutput|rmtree|remove_tree|rm\w*|unlink\w*|remove\w*|eval|\w*_eval|compile|shell_exec|passthru|proc_open|assert|fork|send|public_send|__send__|subprocess|pty|shutil|os|posix|commands|Kernel|IO|Open3|Process|importlib|builtins|__builtins__|__import__)$/;

// Any of the tokens every rule needs: most code has none, so nothing else runs.
const mayHide =
  /eval|exec|compile|Function|system|popen|spawn|Popen|check_|getoutput|getattr|import|send|method|const_get|call_user|create_function|assert|require|fork|run|call|capture|pipeline|Command|binding|dlopen|Reflect|global|self|window|__|\+|\$|&|\||\bas\b/;

function languageOf(how: string): Language | undefined {
  const name = how.split(" ")[0]!;
  if (/^(python|pypy)/.test(name)) return "python";
  if (/^(node|nodejs|bun|deno|tsx|ts-node|esno|esrun)$/.test(name)) return "javascript";
  if (name === "ruby" || name === "perl" || name === "php") return name;
  return /^[gmn]?awk$/.test(name) ? "awk" : undefined;
}

/** Why the code's commands cannot be read from its text, or undefined when they can. */
export function hiddenCode(code: string, how: string): string | undefined {
  const language = languageOf(how);
  if (language === undefined || !mayHide.test(code)) return undefined;
  const { masked, literals } = maskLiterals(code, language);
  const { runners, dispatch, indirections } = rules[language];
  for (const [pattern, reason] of indirections) if (pattern.test(masked)) return reason;
  if (language === "perl" && opensPipe(masked, literals)) return "opens a pipe to a command";
  if (dispatch)
    for (const match of masked.matchAll(dispatch)) {
      const start = match.index + match[0].length;
      // `getattr(obj, 'name', default)`: the object comes first; the name is what must be read.
      const object = match[1] === "getattr" ? /^\s*[\w.]+\s*,/.exec(masked.slice(start)) : null;
      const names = readArguments(masked, start + (object?.[0].length ?? 0), true, literals).names;
      if (names === undefined || names.some((name) => !plainName.test(name) || runnerName.test(name))) return `${match[1]} picks what it runs when it runs`;
    }
  for (const match of masked.matchAll(runners)) {
    const [, receiver = "", name = "", opener = ""] = match;
    // `/x/.exec(s)`, `obj.fork(…)`: a method of something else, unless the code uses child processes.
    const method = receiver !== "" || masked[match.index - 1] === ".";
    if (method && /^(?:exec|spawn|fork)/.test(name) && language === "javascript" && !code.includes("child_process")) continue;
    // `eval { … }` (Perl, Ruby) is a block, not a string.
    if (/^\s*(\{|do\b)/.test(masked.slice(match.index + match[0].length))) continue;
    const start = match.index + match[0].length;
    if (!readArguments(masked, start, opener.includes("("), literals).readable)
      return `${receiver.replace(/\s/g, "")}${name} is given a command or code it builds when it runs`;
  }
  return undefined;
}

interface Arguments {
  /** Only literals, lists of them, numbers, constants and named options: nothing computed. */
  readable: boolean;
  /** The literal names given, when every argument is one (for dispatch calls); undefined otherwise. */
  names: string[] | undefined;
}

/** Reads the arguments of a call starting at `start` in the masked code. */
function readArguments(masked: string, start: number, parenthesised: boolean, literals: readonly string[]): Arguments {
  const text = parenthesised ? untilClose(masked, start) : masked.slice(start).split(/[;\n}]|\b(?:if|unless|or|and)\b|\|\||&&/)[0]!;
  const names: string[] = [];
  let computed = false;
  const reduced = text
    .replace(/\b(?:qw|%[wWiI])\s*(?:\([^)]*\)|\[[^\]]*\]|\{[^}]*\}|<[^>]*>|\/[^/]*\/)/g, " L ")
    .replace(/(?<![\w$])[rRbBuU]{0,2}\uE000(\d+)\uE000/g, (_, index: string) => {
      names.push(literals[Number(index)]!);
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
  // Literals side by side (`"rm -rf " "/"` in awk and Python) are joined when the code runs.
  if (!/^[\s,()[\]{}L]*$/.test(reduced) || /L\s*L/.test(reduced)) computed = true;
  return { readable: !computed, names: computed ? undefined : names };
}

/** The text of a parenthesised argument list, to its closing `)`. */
function untilClose(masked: string, start: number): string {
  let depth = 1;
  for (let i = start; i < masked.length; i++) {
    const char = masked[i];
    if (char === "(" || char === "[" || char === "{") depth++;
    else if ((char === ")" || char === "]" || char === "}") && --depth === 0) return masked.slice(start, i);
  }
  return masked.slice(start);
}

/**
 * The code with each plain string literal replaced by `\uE000<index>\uE000` (its text kept in `literals`), and each
 * interpolating one (`f"…"`, `` `…${x}` ``, `"…#{x}"`, Perl's and PHP's `"…$x"`) by `I`: a string is not code,
 * and an interpolated one is computed.
 */
function maskLiterals(code: string, language: Language): { masked: string; literals: string[] } {
  const literals: string[] = [];
  const interpolates = language === "perl" || language === "php" || language === "ruby";
  let masked = "";
  let i = 0;
  while (i < code.length) {
    const char = code[i]!;
    if (char !== "'" && char !== '"' && char !== "`") {
      masked += char;
      i++;
      continue;
    }
    let j = i + 1;
    while (j < code.length && code[j] !== char) j += code[j] === "\\" ? 2 : 1;
    const body = code.slice(i + 1, j);
    const prefix = code[i - 1] ?? "";
    const interpolated = prefix === "f" || prefix === "F" || /\$\{|#\{/.test(body) || (char !== "'" && interpolates && /[$@][\w{]/.test(body));
    if (interpolated) masked += " I ";
    else {
      masked += `\uE000${literals.length}\uE000`;
      literals.push(body);
    }
    i = j + 1;
  }
  // awk's regular expressions (`/a|b/`) are not pipes.
  return { masked: language === "awk" ? masked.replace(/\/(?:\\.|[^/\n\\])*\//g, " R ") : masked, literals };
}

/** Perl's `open(F, "|sh")`, `open(F, "cmd |")`, `open(F, "-|", …)`: the file is a command, fed or read when the code runs. */
function opensPipe(masked: string, literals: readonly string[]): boolean {
  for (const match of masked.matchAll(/\bopen\s*(\(?)/g)) {
    const text = match[1] === "(" ? untilClose(masked, match.index + match[0].length) : masked.slice(match.index + match[0].length).split(/[;\n]/)[0]!;
    for (const index of text.matchAll(/\uE000(\d+)\uE000/g)) if (/^\s*\||\|\s*$|^\s*-\||^\s*\|-/.test(literals[Number(index[1])]!)) return true;
  }
  return false;
}
