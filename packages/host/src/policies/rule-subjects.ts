import { posix } from "node:path";
import { quoteWord } from "@toolgate/plugin-sdk";
// In the CLI bundle this import is lazy (scripts/bundle.mjs): the shell reader loads on the first shell line a
// command condition reads, so a start with no such rule never pays for it. Path rules do not use it.
import { gitWords, isUnknown, shells, sharedAnalysis, simpleCommands, type Analysis, type AnalysisEnvironment, type Invocation } from "@toolgate/shell";

/**
 * What one argument offers a rule condition to match. A deny or ask condition holds when its glob
 * matches any of `any`, or when the line is `unreadable`; an allow condition only when it matches every
 * one of `all`, and never when `all` is undefined (a line that cannot be read with confidence, or one that
 * runs code the rule cannot see).
 */
export interface Subjects {
  readonly any: readonly string[];
  readonly all: readonly string[] | undefined;
  /** Why the line cannot be read with confidence: whether a deny or ask matches it cannot be decided. */
  readonly unreadable?: string;
}

// The last word of a key (`file_path`, `filePath`, `notebook_path`, `dir`) that names a path.
const pathWords = new Set(["path", "paths", "file", "files", "filename", "filenames", "dir", "dirs", "directory", "directories", "folder", "cwd"]);

// Asked of every argument key of every call a file check reads, and tools repeat their keys: answers kept, a bounded cache emptied when full.
const pathKeys = new Map<string, boolean>();
const pathKeysKept = 256;

/** `path`, `file_path`, `filePath`, `paths`, `target_file`, `directory`, `cwd`, …: the key's last word names a path. */
export function isPathKey(key: string): boolean {
  let answer = pathKeys.get(key);
  if (answer !== undefined) return answer;
  answer = lastWordNamesPath(key);
  if (pathKeys.size >= pathKeysKept) pathKeys.clear();
  pathKeys.set(key, answer);
  return answer;
}

function lastWordNamesPath(key: string): boolean {
  const words = key
    .replace(/([a-z\d])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .split(/[_\-.]+/);
  return pathWords.has(words[words.length - 1] ?? "");
}

/** `~` and `~/…` with the home folder; other text unchanged. */
export function expandHome(text: string, home: string): string {
  return text === "~" || text.startsWith("~/") ? home + text.slice(1) : text;
}

/**
 * A path brought into the form of the glob it is matched against. `~` is the home folder; `.`, `..` and
 * doubled `/` are folded (`/tmp/../etc/passwd` and `//etc/passwd` are `/etc/passwd`). For an absolute
 * glob the path is absolute, a relative one resolved from `cwd`. For a relative glob a path inside `cwd`
 * is relative to it (`./src/../x` and `/work/project/x` are `x`), and a path outside it is absolute
 * (`../.env` in `/work/project` is `/work/.env`), so a glob that starts with `**` still sees it.
 */
export function normalizedPath(value: string, absoluteGlob: boolean, cwd: string, home: string): string {
  const normal = posix.resolve(cwd, expandHome(value, home));
  if (absoluteGlob) return normal;
  if (cwd === "/") return normal.slice(1) || ".";
  if (normal === cwd) return ".";
  return normal.startsWith(`${cwd}/`) ? normal.slice(cwd.length + 1) : normal;
}

/**
 * An argv's commands: those of the line it is. An argv that runs a shell on a script (`["bash", "-lc",
 * "git status"]`, as OpenAI's local shell sends) is read as that script for allow rules, so the rule
 * `git status*` applies to it; deny and ask rules see both.
 */
export function argvSubjects(argv: readonly string[], environment: AnalysisEnvironment): Subjects {
  const whole = shellSubjects(argv.map(quoteWord).join(" "), environment);
  const script = shellScriptOf(argv);
  if (script === undefined) return whole;
  const inner = shellSubjects(script, environment);
  const any = [...whole.any, ...inner.any];
  const all = whole.all === undefined ? undefined : inner.all;
  const unreadable = whole.unreadable ?? inner.unreadable;
  return unreadable === undefined ? { any, all } : { any, all, unreadable };
}

/** The script of `[shell, ...flags, script]` where a flag holds `c` (`-c`, `-lc`, `-e -c`); else undefined. */
function shellScriptOf(argv: readonly string[]): string | undefined {
  const [program = "", ...rest] = argv;
  const options = rest.slice(0, -1);
  if (!shells.has(program.slice(program.lastIndexOf("/") + 1)) || options.length === 0) return undefined;
  if (!options.every((option) => /^-[A-Za-z]+$/.test(option)) || !options.some((option) => option.includes("c"))) return undefined;
  return rest[rest.length - 1];
}

/**
 * The commands of a shell line. Syntactically, every simple command (`simpleCommands`: after `;`, `&&`,
 * `||`, `|`, newlines, inside groups and substitutions); semantically, every command `analyze` finds it
 * would run, nested ones included, as written (`sudo rm -rf /`, `rm -rf /` inside `sh -c '…'`), and what
 * an alias defined on the line or a git `-c alias.…` stands for. Deny and ask also see each command by its
 * bare name and arguments (`rm -rf /` for `sudo env A=1 rm -rf /`, for `xargs rm` the `rm`), the bodies of
 * functions never called and the values of aliases. An allow needs every one of those commands, and a
 * line the reader reads with no problem, no command whose name is only known at run time, and no program
 * in a form that runs code the reader does not read (`beyondItself`). A line break inside a command
 * (quoted) is read as a space.
 */
export function shellSubjects(line: string, environment: AnalysisEnvironment): Subjects {
  return readLine(line, { environment, budget: maxReads }, new Map(), 0);
}

// How deep alias and trap bodies are read, and how many in all (`alias x='x x x x'` doubles at each level);
// past either the line is unreadable (bash itself stops at an alias it is expanding).
const maxDepth = 8;
const maxReads = 64;

interface Reader {
  readonly environment: AnalysisEnvironment;
  budget: number;
}

interface Reading {
  readonly any: string[];
  readonly all: string[];
  unreadable?: string | undefined;
  beyond?: string | undefined;
}

function readLine(line: string, reader: Reader, outer: ReadonlyMap<string, string[]>, depth: number): Subjects {
  const syntactic = simpleCommands(line);
  const reading: Reading = { any: [...syntactic.commands], all: [...syntactic.commands] };
  if (syntactic.problem !== undefined) reading.unreadable = syntactic.problem;
  let analysis: Analysis;
  try {
    analysis = sharedAnalysis(line, reader.environment);
  } catch {
    // The analyzer is total by design; should it ever throw, nothing about the line can be vouched for.
    return finish({ ...reading, unreadable: "the shell reader could not read the line" });
  }
  if (analysis.problems.length > 0) reading.unreadable ??= analysis.problems[0];
  const [unresolved] = analysis.unresolved;
  if (unresolved !== undefined) reading.unreadable ??= `"${unresolved.text}" runs a command whose name is only known when the line runs`;
  // `BASH_ALIASES[x]=…` defines an alias through a variable: not read here.
  if (/BASH_ALIASES/i.test(line)) reading.unreadable ??= "the line sets aliases through BASH_ALIASES";
  const aliases = aliasesOf(analysis, outer);
  const read = (text: string) => (depth >= maxDepth || --reader.budget < 0 ? undefined : readLine(text, reader, aliases, depth + 1));
  const sandboxes = sandboxWrappers(analysis.invocations);
  // The reading's lists are frozen: walked with indexed loops (built-in array methods and iterators are several times slower on frozen arrays).
  for (let index = 0; index < analysis.invocations.length; index++) {
    const invocation = analysis.invocations[index]!;
    // `bwrap … -- bash -c 'git status'` (@toolgate/sandbox's rewrite): what runs is `git status`, with less.
    if (sandboxes.has(invocation)) reading.any.push(invocation.text);
    else readInvocation(invocation, reading, aliases, read);
  }
  if (sandboxes.size > 0) dropCommands(reading.all, new Set([...sandboxes].map((sandbox) => sandbox.text)));
  for (let index = 0; index < analysis.uncalled.length; index++) reading.any.push(analysis.uncalled[index]!.text);
  // An alias body is code, like a function's: deny and ask see it even where it is never used.
  for (const [name, values] of aliases) if (!outer.has(name)) for (const value of values) addAny(reading, read(value));
  return finish(reading);
}

function readInvocation(invocation: Invocation, reading: Reading, aliases: ReadonlyMap<string, string[]>, read: (text: string) => Subjects | undefined): void {
  const { name, args, text } = invocation;
  reading.any.push(text);
  reading.all.push(text);
  if (name !== "" && !spells(text, name, args)) reading.any.push([name, ...args].join(" "));
  if (isUnknown(name)) reading.unreadable ??= `"${text}" runs a command whose name is only known when the line runs`;
  reading.beyond ??= beyondItself(invocation);
  // `export GIT_PAGER='rm -rf ~'; git log`: a variable exported earlier may hold code the command runs, unseen in its text.
  if (invocation.assignments.some((assignment) => !text.includes(assignment))) reading.beyond ??= `"${text}" runs with variables exported earlier`;
  // `alias x='rm -rf ~'` then `x`: what bash runs is the alias's value with the words after it.
  for (const value of aliases.get(name) ?? []) addAll(reading, read([value, ...args.map(quoteWord)].join(" ")), `the alias ${name}`);
  // `trap 'rm -rf ~' EXIT`: the body runs later, as a command line.
  const body = name === "trap" ? trapBody(args) : undefined;
  if (body !== undefined) addAll(reading, read(body), "a trap body");
  // `git -c alias.st='push --force' st`: git runs the alias's words (a `!` alias is a nested script the reader reads).
  if (name === "git") {
    const { index, alias } = gitWords(args);
    if (alias !== undefined && !alias.startsWith("!")) {
      const resolved = ["git", ...alias.split(/\s+/).filter(Boolean), ...args.slice(index + 1)].join(" ");
      reading.any.push(resolved);
      reading.all.push(resolved);
    }
  }
}

/**
 * Why an allow rule cannot vouch for this command by its text, beyond what `analyze` already reports: the
 * reader's runner table (`runnerReading`, read inside `analyze`) turns the code a runner's options or script
 * hand on (`sed '1e …'`, `git -c core.pager=…`) into nested commands of the line, each of which the rules
 * must vouch for on its own, and its unread options into problems (then the line is unreadable). Left here:
 * an option read as a command name (`flock f -c '…'`: its command was not read), and the forms below.
 */
/** Whether `text` is `name` and `args` joined by spaces, asked without building that text (most commands are written so). */
function spells(text: string, name: string, args: readonly string[]): boolean {
  if (!text.startsWith(name)) return false;
  let at = name.length;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (text.charCodeAt(at) !== 32 || !text.startsWith(arg, at + 1)) return false;
    at += arg.length + 1;
  }
  return at === text.length;
}

function beyondItself(invocation: Invocation): string | undefined {
  if (invocation.name.startsWith("-")) return `"${invocation.name}" is an option read as a command name: the command it belongs to was not read`;
  return unreadByShell(invocation);
}

// bubblewrap's options that only take away: namespaces, a fresh /dev, /proc or /tmp, a folder or file hidden
// or made read-only, a path bound where it already is. With only these, the command inside runs as it would
// outside, with less reach; any other option (`--chdir`, `--setenv`, `--bind A B`, `--cap-add`, …) changes
// what it does.
const restrictingFlags = new Set([
  "--die-with-parent",
  "--new-session",
  "--unshare-all",
  "--unshare-user",
  "--unshare-user-try",
  "--unshare-ipc",
  "--unshare-pid",
  "--unshare-net",
  "--unshare-uts",
  "--unshare-cgroup",
  "--unshare-cgroup-try",
]);

/**
 * The sandbox wrappers of a line, for allow rules: a `bwrap` with only restricting options, and the
 * `bash -c SCRIPT` it runs. An allow vouches for the commands they run (read as nested commands of the
 * line, each of which it must cover); deny and ask still see every one of them.
 */
function sandboxWrappers(invocations: readonly Invocation[]): ReadonlySet<Invocation> {
  const found = new Set<Invocation>();
  for (let index = 0; index < invocations.length; index++) {
    const invocation = invocations[index]!;
    if (invocation.name !== "bwrap" || invocation.wrappers.length > 0 || !onlyRestricts(invocation.args)) continue;
    found.add(invocation);
    const [inner] = invocation.nested;
    if (inner !== undefined && shells.has(inner.name) && inner.args.length === 2 && inner.args[0] === "-c" && inner.wrappers.length === 0) found.add(inner);
  }
  return found;
}

/** Takes the syntactic commands that are sandbox wrappers out of what an allow must cover. */
function dropCommands(all: string[], texts: ReadonlySet<string>): void {
  for (let index = all.length - 1; index >= 0; index--) if (texts.has(all[index]!)) all.splice(index, 1);
}

function onlyRestricts(args: readonly string[]): boolean {
  let index = 0;
  while (index < args.length && args[index] !== "--") {
    const option = args[index]!;
    const [first, second] = [args[index + 1], args[index + 2]];
    if (restrictingFlags.has(option)) index += 1;
    else if ((option === "--dev" && first === "/dev") || (option === "--proc" && first === "/proc")) index += 2;
    else if ((option === "--tmpfs" || option === "--remount-ro") && first?.startsWith("/")) index += 2;
    else if ((option === "--bind" || option === "--ro-bind") && first !== undefined && first === second) index += 3;
    else if (option === "--ro-bind" && first === "/dev/null" && second?.startsWith("/")) index += 3;
    else return false;
  }
  return args[index] === "--" && index + 1 < args.length;
}

/**
 * Forms that run code which the shell reader does not report yet (neither a script nor a problem): until
 * it does, an allow does not vouch for them. Remove each line once `@toolgate/shell` reads its form.
 */
function unreadByShell({ name, args, text }: Invocation): string | undefined {
  // Most commands are none of these: no closures, no scans of their (frozen) arguments.
  if (name !== "script" && name !== "enable" && name !== "git" && !name.endsWith("awk")) return undefined;
  const short = (letter: string) => args.some((arg) => /^-[A-Za-z]+$/.test(arg) && arg.includes(letter));
  const long = (option: string) => args.some((arg) => arg.length >= 5 && option.startsWith(arg.split("=", 1)[0]!));
  const runs =
    (name === "script" && (short("c") || long("--command"))) ||
    (name === "enable" && short("f")) ||
    (name === "git" && args.includes("grep") && (args.some((arg) => /^-[A-Za-z]*O/.test(arg)) || long("--open-files-in-pager"))) ||
    (/^[gmn]?awk$/.test(name) && args.some((arg) => /\bsystem\s*\(/.test(arg)));
  return runs ? `"${text}" runs code in a form the shell reader does not read` : undefined;
}

/**
 * The aliases the line defines, with those it inherits: every value each name may have. `alias x='…' y='…'`
 * in any branch, and `hash -p /bin/rm ls`, which makes the name `ls` run that program.
 */
function aliasesOf(analysis: Analysis, outer: ReadonlyMap<string, string[]>): ReadonlyMap<string, string[]> {
  let aliases: Map<string, string[]> | undefined;
  const define = (name: string, value: string) => {
    aliases ??= new Map(outer);
    aliases.set(name, [...(aliases.get(name) ?? []), value]);
  };
  for (const list of [analysis.invocations, analysis.uncalled]) for (let index = 0; index < list.length; index++) defineFrom(list[index]!, define);
  return aliases ?? outer;
}

/** The aliases one command defines: `alias x='…'`, or `hash -p /bin/rm ls`. */
function defineFrom(invocation: Invocation, define: (name: string, value: string) => void): void {
  if (invocation.name === "alias") {
    for (const arg of invocation.args) {
      const definition = /^([^=\s]+)=(.*)$/s.exec(arg);
      if (definition !== null) define(definition[1]!, definition[2]!);
    }
  } else if (invocation.name === "hash") {
    const at = invocation.args.findIndex((arg) => /^-[A-Za-z]*p$/.test(arg));
    const program = at === -1 ? undefined : invocation.args[at + 1];
    if (program !== undefined) for (const name of invocation.args.slice(at + 2)) if (!name.startsWith("-")) define(name, quoteWord(program));
  }
}

/** `trap 'body' SIG…`: the body; none for `trap -p`, `trap -l`, `trap - SIG` or a lone signal list. */
function trapBody(args: readonly string[]): string | undefined {
  const rest = args[0] === "--" ? args.slice(1) : args;
  const [body] = rest;
  if (body === undefined || body === "-" || rest.length < 2 || (body.startsWith("-") && args[0] !== "--")) return undefined;
  return body;
}

function addAny(reading: Reading, inner: Subjects | undefined): void {
  if (inner === undefined) reading.unreadable ??= "aliases expand too deep or too often to read";
  else reading.any.push(...inner.any);
}

/** A command line the invocation runs: its commands join the line's, for deny and for allow alike. */
function addAll(reading: Reading, inner: Subjects | undefined, what: string): void {
  if (inner === undefined) {
    reading.unreadable ??= `${what} expands too deep or too often to read`;
    return;
  }
  reading.any.push(...inner.any);
  if (inner.unreadable !== undefined) reading.unreadable ??= `${what}: ${inner.unreadable}`;
  if (inner.all === undefined) reading.beyond ??= `${what} runs what no allow rule can vouch for`;
  else reading.all.push(...inner.all);
}

function finish(reading: Reading): Subjects {
  const any = reading.any.map(oneLine);
  const vouchable = reading.unreadable === undefined && reading.beyond === undefined && reading.all.length > 0;
  const all = vouchable ? reading.all.map(oneLine) : undefined;
  return reading.unreadable === undefined ? { any, all } : { any, all, unreadable: reading.unreadable };
}

// A line break left inside one command is quoted text (`git commit -m "a<newline>b"`): a glob's `*` does not
// cross it, so it would hide the command from a deny rule; it is matched as a space.
function oneLine(command: string): string {
  return command.includes("\n") || command.includes("\r") ? command.replaceAll(/\r\n|[\r\n]/g, " ") : command;
}
