import { classifyTarget, type PathContext, type TargetKind } from "../paths.js";
import { isUnknown, knownInputs, readArguments, unknownText, unwrap, type Grammar, type Invocation } from "@toolgate/shell";
import { removedByOtherTool, type Removal } from "./other-deleters.js";
import { show, type Delete, type Facts, type Rule } from "./rule.js";

/**
 * Every recursive delete a command line would make: `rm -r` (any flag spelling, through any wrapper),
 * `find … -delete` or `-exec rm`, and interpreter deletes (already turned into `rm -r` invocations).
 */
export function collectDeletes(invocations: readonly Invocation[], context: PathContext): Delete[] {
  const deletes: Delete[] = [];
  // Indexed: a reading's lists are frozen, and a for-of over a frozen array makes an iterator each time.
  for (let index = 0; index < invocations.length; index++) {
    const invocation = invocations[index]!;
    const removal = deletedTargets(invocation);
    if (!removal) continue;
    for (const target of removal.targets) {
      const classified = classifyTarget(target, invocation.cwd, context);
      // `find . -name '*.o' -delete` deletes some files in the project, not the project itself.
      if (removal.filtered && classified.kind === "project" && classified.path === context.projectRoot) classified.kind = "inside";
      // `find /tmp -name '*.log' -delete` deletes some files in the temp folder, not the folder itself.
      if (removal.narrowed && classified.path !== undefined && context.tempDirs.includes(classified.path)) classified.kind = "temp";
      deletes.push({ invocation, target: classified, force: removal.force });
    }
  }
  return deletes;
}

const unknownInput = "$(input)";

function deletedTargets(invocation: Invocation): Removal | undefined {
  const { name, args } = invocation;
  if (name === "rm" || ((name.charCodeAt(0) === 36 || isUnknown(name)) && args.some(isRecursiveFlag))) return removedByRm(invocation);
  if (name === "find") return removedByFind(invocation);
  const other = removedByOtherTool(name, args, readRm);
  if (other === undefined) return undefined;
  return invocation.input === "stdin" ? { ...other, targets: withInput(invocation, other.targets) } : other;
}

function removedByRm(invocation: Invocation): Removal | undefined {
  const { recursive, force, operands } = readRm(invocation.args);
  if (!recursive) return undefined;
  if (invocation.input === "find") return { targets: operands.filter((operand) => operand !== "{}"), force };
  if (invocation.input === "stdin") return { targets: withInput(invocation, operands), force };
  return { targets: operands, force };
}

// GNU rm's options: getopt_long, so `--recur` is `--recursive` and `--no-pres` is `--no-preserve-root`.
const rmGrammar: Grammar = {
  program: "rm",
  abbreviate: true,
  short: {
    f: { arity: "none" },
    i: { arity: "none" },
    I: { arity: "none" },
    r: { arity: "none" },
    R: { arity: "none" },
    d: { arity: "none" },
    v: { arity: "none" },
  },
  long: {
    force: { arity: "none" },
    interactive: { arity: "optional" },
    "one-file-system": { arity: "none" },
    "no-preserve-root": { arity: "none" },
    "preserve-root": { arity: "optional" },
    recursive: { arity: "none" },
    dir: { arity: "none" },
    verbose: { arity: "none" },
    help: { arity: "none" },
    version: { arity: "none" },
  },
};

function readRm(args: readonly string[]): { recursive: boolean; force: boolean; operands: string[] } {
  const read = readArguments(args, rmGrammar);
  let recursive = false;
  let force = false;
  for (const option of read.options) {
    recursive ||= option.name === "-r" || option.name === "-R" || option.name === "--recursive";
    force ||= option.name === "-f" || option.name === "--force";
  }
  // A letter rm does not know ends the reading of its cluster (`-Zr`): a recursion flag after it still counts.
  if (!recursive) recursive = args.some((arg) => arg !== "--" && isRecursiveFlag(arg)) && read.problems.length > 0;
  return { recursive, force, operands: read.operands };
}

function isRecursiveFlag(arg: string): boolean {
  if (arg.startsWith("--")) return arg.length >= 3 && "--recursive".startsWith(arg.split("=")[0]!);
  return /^-[A-Za-z]*[rR]/.test(arg);
}

const findDeleters = new Set(["rm", "unlink", "shred", "rmdir"]);
// Primaries whose next word is their value (`-name -delete` looks for files named "-delete").
const findValued = new Set(
  "-name -iname -path -ipath -wholename -iwholename -regex -iregex -lname -ilname -user -group -uid -gid -inum -samefile -newer -anewer -cnewer -perm -type -xtype -size -mtime -atime -ctime -mmin -amin -cmin -used -links -maxdepth -mindepth -fstype -printf -fprintf -fprint -fprint0 -fls -context -newerXY".split(
    " ",
  ),
);
// Primaries that narrow what is matched: with one of them, find deletes some files, not everything.
const findFilters = /^-(i?name|i?path|i?wholename|i?regex|type|xtype|size|[amc](time|min)|newer\w*|perm|user|group|uid|gid|inum|samefile|links|empty|l?name)$/;

/** The words of a find expression that are primaries, without values and `-exec … ;` contents; and the exec'd commands. */
export function findExpression(args: readonly string[]): { primaries: string[]; execs: string[][] } {
  const primaries: string[] = [];
  const execs: string[][] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (/^-(exec|execdir|ok|okdir)$/.test(arg)) {
      let end = index + 1;
      while (end < args.length && args[end] !== ";" && args[end] !== "+") end++;
      execs.push(args.slice(index + 1, end));
      index = end;
    } else if (arg.startsWith("-")) {
      primaries.push(arg);
      if (findValued.has(arg)) index++;
    }
  }
  return { primaries, execs };
}

// Primaries that pick some files by what they are called or hold, whatever their age or type.
const findSelectors = /^-(i?name|i?path|i?wholename|i?regex|i?lname|empty|inum|samefile|links|size|perm|user|group|uid|gid|nouser|nogroup)$/;

/**
 * Whether a find expression picks some of the files before it deletes: `-name '*.o' -delete` does;
 * `-type f`, `-mtime +1`, `-name '*'`, or a test after the action (`-delete -name x` deletes everything) do not.
 */
function selectsSome(args: readonly string[]): boolean {
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (arg === "-delete" || /^-(exec|execdir|ok|okdir)$/.test(arg)) return false;
    const value = findValued.has(arg) ? (args[++index] ?? "") : "x";
    if (findSelectors.test(arg) && !/^(\*|\.\*)?$|^[*?]+$/.test(value)) return true;
  }
  return false;
}

/** Under xargs or parallel: operands holding the placeholder, and the operands appended from the input, are unknown. */
function withInput(invocation: Invocation, operands: readonly string[]): string[] {
  const placeholder = invocation.placeholder ?? "{}";
  const known = knownInputs(invocation);
  if (known === undefined) return [...operands.map((operand) => (operand.includes(placeholder) ? unknownInput : operand)), unknownInput];
  // The input is known (`echo / | xargs rm -rf`): each item is an operand, or takes the placeholder's place.
  // Without the placeholder in its words, parallel appends each input; xargs -I does not, but reading it so costs nothing.
  if (!operands.some((operand) => operand.includes(placeholder))) return [...operands, ...known];
  return operands.flatMap((operand) => (operand.includes(placeholder) ? known.map((item) => operand.replaceAll(placeholder, item)) : [operand]));
}

/** `find a b -name x -delete`: deletes inside the start folders (`.` when none is given; more from xargs input). */
function removedByFind(invocation: Invocation): Removal | undefined {
  const { args } = invocation;
  const { primaries, execs } = findExpression(args);
  const removers = [...execs.map((command) => unwrap(command)), ...resultDeletesRunBy(invocation)].filter((command) => findDeleters.has(command.name));
  const deleteAction = primaries.includes("-delete");
  if (!deleteAction && removers.length === 0) return undefined;
  const force = deleteAction || removers.some((command) => command.name !== "rm" || readRm(command.args).force);
  const narrowed = primaries.some((primary) => findFilters.test(primary));
  // `find . -name '*.o' -delete` deletes some files in the project; `-type f` alone, `-o` or `!` may still take everything.
  const negated = primaries.some((primary) => /^-(o|or|not)$/.test(primary)) || args.includes("!");
  const filtered = !negated && selectsSome(args);
  const targets = findStartPaths(args);
  return { targets: invocation.input === "stdin" ? withInput(invocation, targets) : targets, force, filtered, narrowed };
}

/**
 * `find ~ -exec sh -c 'rm -rf "$1"' _ {} \;`: the commands a script run by `-exec` gives a result to
 * (`{}` reached them through its positional parameters); find's first result may be its start folder.
 */
function resultDeletesRunBy(invocation: Invocation): { name: string; args: string[] }[] {
  const found: { name: string; args: string[] }[] = [];
  const visit = (nested: readonly Invocation[]) => {
    for (const child of nested) {
      if (child.input !== "find" && child.args.some((arg) => arg.includes("{}"))) found.push(child);
      visit(child.nested);
    }
  };
  visit(invocation.nested);
  return found;
}

/** The folders find starts from (`.` when none is given). */
export function findStartPaths(args: readonly string[]): string[] {
  const paths: string[] = [];
  for (const arg of args) {
    if (arg === "-H" || arg === "-L" || arg === "-P") continue;
    if (arg.startsWith("-") || arg === "(" || arg === "!") break;
    paths.push(arg);
  }
  return paths.length === 0 ? ["."] : paths;
}

function firstDelete(facts: Facts, kinds: readonly TargetKind[], forcedOnly: boolean): Delete | undefined {
  return facts.deletes.find((candidate) => kinds.includes(candidate.target.kind) && (candidate.force || !forcedOnly));
}

const insteadInside = "Delete specific paths inside the project instead (for example `rm -rf ./build`).";

function deleteRule(
  id: string,
  kinds: TargetKind[],
  summary: string,
  describe: (found: Delete, facts: Facts) => string,
  catastrophic = true,
  forcedOnly = !catastrophic,
): Rule {
  return {
    id,
    pack: "core",
    catastrophic,
    summary,
    check(facts) {
      // Catastrophic and unknown targets are refused with or without -f (an agent's shell has no terminal to prompt on); the others only for forced deletes.
      const found = firstDelete(facts, kinds, forcedOnly);
      return found === undefined ? undefined : describe(found, facts);
    },
  };
}

export const deleteRules: readonly Rule[] = [
  deleteRule(
    "rm-root",
    ["root"],
    "recursive deletes of `/` or everything in it",
    (found) => `refusing to delete the root directory: ${show(found.invocation)} would erase the whole machine. ${insteadInside}`,
  ),
  deleteRule(
    "rm-home",
    ["home"],
    "recursive deletes of a home folder (`~`, `$HOME`, `/home/<user>`)",
    (found) =>
      `refusing to delete the home folder ${found.target.path ?? found.target.raw}: ${show(found.invocation)} would erase the user's files and settings. ${insteadInside}`,
  ),
  deleteRule(
    "rm-system",
    ["system"],
    "recursive deletes of system folders (`/etc`, `/usr`, `/var`, `/home`, …)",
    (found) => `refusing to delete the system folder ${found.target.path}: ${show(found.invocation)} would break the machine. ${insteadInside}`,
  ),
  deleteRule("rm-project", ["project"], "recursive deletes of the project root, its `.git`, or a folder that contains the project", (found, facts) =>
    found.target.path?.endsWith("/.git")
      ? `refusing to delete the project's git history (${found.target.path}): ${show(found.invocation)} cannot be undone. Delete specific files instead, or ask the user.`
      : `refusing to delete ${found.target.path === facts.context.projectRoot ? "the project root" : "a folder that contains the project"} (${found.target.path}): ${show(found.invocation)} would erase all of the work. Delete specific subfolders instead (for example \`rm -rf ./dist\`).`,
  ),
  deleteRule(
    "rm-outside-project",
    ["outside"],
    "recursive force deletes (`-rf`, `find -delete`) outside the project and the temp folders (option `deleteOutsideProject`)",
    (found, facts) =>
      `refusing a recursive delete outside the project: ${show(found.invocation)} deletes ${found.target.path}, which is outside ${facts.context.projectRoot} and the temp folders. Delete only paths inside the project, or ask the user to delete it.`,
    false,
  ),
  deleteRule(
    "rm-unknown-target",
    ["unknown"],
    "recursive deletes, with or without `-f`, whose target is only known at run time (a variable, a command's output, xargs input)",
    (found) =>
      `refusing a recursive delete whose target cannot be known before it runs: ${show(found.invocation)} deletes ${describeUnknown(found)}. Write the paths out literally (inside the project), so they can be checked.`,
    false,
    false,
  ),
];

function describeUnknown(found: Delete): string {
  const { raw } = found.target;
  if (raw === unknownInput) return found.invocation.input === "stdin" ? "whatever paths its input holds (xargs/parallel)" : "a path computed by the code";
  if (raw === "$(unknown)") return "a path computed by the code";
  if (/\$\(|`/.test(raw)) return `the output of a command (${raw})`;
  if (raw.includes("$") || isUnknown(raw)) return `${raw.replaceAll(unknownText, "⟨unknown⟩")}, whose value is not known here`;
  return `${raw}, relative to a folder that is not known here (after \`cd\`)`;
}
