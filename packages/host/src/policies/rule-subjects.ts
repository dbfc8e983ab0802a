import { posix } from "node:path";
// In the CLI bundle this import is lazy (scripts/bundle.mjs): the shell reader loads on the first shell line a
// command condition reads, so a start with no such rule never pays for it. Path rules do not use it.
import { analyze, shells, simpleCommands, type AnalysisEnvironment } from "@toolgate/shell";

/**
 * What one argument offers a rule condition to match. A deny or ask condition holds when its glob
 * matches any of `any`; an allow condition only when it matches every one of `all`, and never when
 * `all` is undefined (a shell line that cannot be read with confidence).
 */
export interface Subjects {
  readonly any: readonly string[];
  readonly all: readonly string[] | undefined;
}

/** Arguments of a shell tool that hold a command line (a string) or an argv (an array of strings). */
export const shellKeys: ReadonlySet<string> = new Set(["command", "cmd", "script"]);

// The last word of a key (`file_path`, `filePath`, `notebook_path`, `dir`) that names a path.
const pathWords = new Set(["path", "paths", "file", "files", "filename", "filenames", "dir", "dirs", "directory", "directories", "folder", "cwd"]);

/** `path`, `file_path`, `filePath`, `paths`, `target_file`, `directory`, `cwd`, …: the key's last word names a path. */
export function isPathKey(key: string): boolean {
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
 * glob a relative path is resolved from `cwd`; for a relative glob a path inside `cwd` is made relative to
 * it, and a relative path stays relative (`./src/../x` is `x`, `../x` stays `../x`).
 */
export function normalizedPath(value: string, absoluteGlob: boolean, cwd: string, home: string): string {
  const path = expandHome(value, home);
  if (path.startsWith("/")) {
    const normal = posix.resolve(path);
    if (absoluteGlob) return normal;
    if (cwd === "/") return normal.slice(1) || ".";
    return normal.startsWith(`${cwd}/`) ? normal.slice(cwd.length + 1) : normal;
  }
  if (absoluteGlob) return posix.resolve(cwd, path);
  const normal = posix.normalize(path);
  return normal.length > 1 && normal.endsWith("/") ? normal.slice(0, -1) : normal;
}

/** An argv as the shell line that runs it: each element one word, quoted when it needs to be. */
function argvLine(argv: readonly string[]): string {
  return argv.map((word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`)).join(" ");
}

/**
 * An argv's commands: those of the line it is. An argv that runs a shell on a script (`["bash", "-lc",
 * "git status"]`, as OpenAI's local shell sends) is read as that script for allow rules, so the rule
 * `git status*` applies to it; deny and ask rules see both.
 */
export function argvSubjects(argv: readonly string[], environment: AnalysisEnvironment): Subjects {
  const whole = shellSubjects(argvLine(argv), environment);
  const script = shellScriptOf(argv);
  if (script === undefined) return whole;
  const inner = shellSubjects(script, environment);
  return { any: [...whole.any, ...inner.any], all: whole.all === undefined ? undefined : inner.all };
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
 * would run, as written (`sudo rm -rf /`, `rm -rf /` inside `sh -c '…'`). Deny and ask also see each of
 * those by its bare name and arguments (`rm -rf /` for `sudo env A=1 rm -rf /`, for `xargs rm` the `rm`)
 * and the bodies of functions never called. An allow needs every command as written and a line that
 * parses with no problem. A line break inside a command (quoted) is read as a space.
 */
export function shellSubjects(line: string, environment: AnalysisEnvironment): Subjects {
  const syntactic = simpleCommands(line);
  const any = [...syntactic.commands];
  const all = [...syntactic.commands];
  let readable = syntactic.problem === undefined;
  try {
    const analysis = analyze(line, environment);
    if (analysis.problems.length > 0) readable = false;
    for (const invocation of analysis.invocations) {
      any.push(invocation.text);
      all.push(invocation.text);
      if (invocation.name === "") continue;
      const bare = [invocation.name, ...invocation.args].join(" ");
      if (bare !== invocation.text) any.push(bare);
    }
    for (const invocation of analysis.uncalled) any.push(invocation.text);
  } catch {
    // The analyzer is total by design; should it ever throw, no allow rule may vouch for the line.
    readable = false;
  }
  return { any: any.map(oneLine), all: readable && all.length > 0 ? all.map(oneLine) : undefined };
}

// A line break left inside one command is quoted text (`git commit -m "a<newline>b"`): a glob's `*` does not
// cross it, so it would hide the command from a deny rule; it is matched as a space.
function oneLine(command: string): string {
  return command.includes("\n") || command.includes("\r") ? command.replaceAll(/\r\n|[\r\n]/g, " ") : command;
}
