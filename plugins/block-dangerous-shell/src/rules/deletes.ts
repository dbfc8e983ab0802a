import { classifyTarget, type PathContext, type TargetKind } from "../paths.js";
import type { Invocation } from "../shell/invocations.js";
import { unwrap } from "../shell/unwrap.js";
import { show, type Delete, type Facts, type Rule } from "./rule.js";

/**
 * Every recursive delete a command line would make: `rm -r` (any flag spelling, through any wrapper),
 * `find … -delete` or `-exec rm`, and interpreter deletes (already turned into `rm -r` invocations).
 */
export function collectDeletes(invocations: readonly Invocation[], context: PathContext): Delete[] {
  const deletes: Delete[] = [];
  for (const invocation of invocations) {
    const filtered = invocation.name === "find" && isFiltered(invocation.args);
    for (const target of deletedTargets(invocation)) {
      const classified = classifyTarget(target, invocation.cwd, context);
      // `find . -name '*.o' -delete` deletes some files in the project, not the project itself.
      if (filtered && classified.kind === "project" && classified.path === context.projectRoot) classified.kind = "inside";
      deletes.push({ invocation, target: classified });
    }
  }
  return deletes;
}

const unknownInput = "$(input)";

function deletedTargets(invocation: Invocation): string[] {
  const { name, args } = invocation;
  if (name === "rm" || (/^\$/.test(name) && args.some(isRecursiveFlag))) return removedByRm(invocation);
  if (name === "find") return removedByFind(args);
  return [];
}

function removedByRm(invocation: Invocation): string[] {
  let recursive = false;
  let options = true;
  const operands: string[] = [];
  for (const arg of invocation.args) {
    if (options && arg === "--") options = false;
    else if (options && arg.startsWith("-") && arg.length > 1) recursive ||= isRecursiveFlag(arg);
    else operands.push(arg);
  }
  if (!recursive) return [];
  if (invocation.input === "find") return operands.filter((operand) => operand !== "{}");
  if (invocation.input === "stdin") return [...operands.map((operand) => (operand.includes("{}") ? unknownInput : operand)), unknownInput];
  return operands;
}

function isRecursiveFlag(arg: string): boolean {
  if (arg.startsWith("--")) return arg.length >= 5 && "--recursive".startsWith(arg);
  return /^-[A-Za-z]*[rR]/.test(arg);
}

const findDeleters = new Set(["rm", "unlink", "shred", "rmdir"]);
// Primaries whose next word is their value (`-name -delete` looks for files named "-delete").
const findValued = new Set(
  "-name -iname -path -ipath -wholename -iwholename -regex -iregex -lname -ilname -user -group -uid -gid -inum -samefile -newer -anewer -cnewer -perm -type -xtype -size -mtime -atime -ctime -mmin -amin -cmin -used -links -maxdepth -mindepth -fstype -printf -fprintf -fprint -fprint0 -fls -context -newerXY".split(" "),
);
// Primaries that narrow what is matched: with one of them, find deletes some files, not everything.
const findFilters = /^-(i?name|i?path|i?wholename|i?regex|type|xtype|size|[amc](time|min)|newer\w*|perm|user|group|uid|gid|inum|samefile|links|empty|l?name)$/;

/** The words of a find expression that are primaries, without values and `-exec … ;` contents; and the exec'd commands. */
function findExpression(args: readonly string[]): { primaries: string[]; execs: string[][] } {
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

function isFiltered(args: readonly string[]): boolean {
  return findExpression(args).primaries.some((primary) => findFilters.test(primary));
}

/** `find a b -name x -delete`: deletes inside the start folders (`.` when none is given). */
function removedByFind(args: readonly string[]): string[] {
  const { primaries, execs } = findExpression(args);
  const deletes = primaries.includes("-delete") || execs.some((command) => findDeleters.has(unwrap(command).name));
  if (!deletes) return [];
  const paths: string[] = [];
  for (const arg of args) {
    if (arg === "-H" || arg === "-L" || arg === "-P") continue;
    if (arg.startsWith("-") || arg === "(" || arg === "!") break;
    paths.push(arg);
  }
  return paths.length === 0 ? ["."] : paths;
}

function firstDelete(facts: Facts, kinds: readonly TargetKind[]): Delete | undefined {
  return facts.deletes.find((candidate) => kinds.includes(candidate.target.kind));
}

const insteadInside = "Delete specific paths inside the project instead (for example `rm -rf ./build`).";

function deleteRule(id: string, kinds: TargetKind[], summary: string, describe: (found: Delete, facts: Facts) => string, catastrophic = true): Rule {
  return {
    id,
    pack: "core",
    catastrophic,
    summary,
    check(facts) {
      const found = firstDelete(facts, kinds);
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
    (found) => `refusing to delete the home folder ${found.target.path ?? found.target.raw}: ${show(found.invocation)} would erase the user's files and settings. ${insteadInside}`,
  ),
  deleteRule(
    "rm-system",
    ["system"],
    "recursive deletes of system folders (`/etc`, `/usr`, `/var`, `/home`, …)",
    (found) => `refusing to delete the system folder ${found.target.path}: ${show(found.invocation)} would break the machine. ${insteadInside}`,
  ),
  deleteRule(
    "rm-project",
    ["project"],
    "recursive deletes of the project root, its `.git`, or a folder that contains the project",
    (found, facts) =>
      found.target.path?.endsWith("/.git")
        ? `refusing to delete the project's git history (${found.target.path}): ${show(found.invocation)} cannot be undone. Delete specific files instead, or ask the user.`
        : `refusing to delete ${found.target.path === facts.context.projectRoot ? "the project root" : "a folder that contains the project"} (${found.target.path}): ${show(found.invocation)} would erase all of the work. Delete specific subfolders instead (for example \`rm -rf ./dist\`).`,
  ),
  deleteRule(
    "rm-outside-project",
    ["outside"],
    "recursive deletes outside the project and the temp folders (option `deleteOutsideProject`)",
    (found, facts) =>
      `refusing a recursive delete outside the project: ${show(found.invocation)} deletes ${found.target.path}, which is outside ${facts.context.projectRoot} and the temp folders. Delete only paths inside the project, or ask the user to delete it.`,
    false,
  ),
  deleteRule(
    "rm-unknown-target",
    ["unknown"],
    "recursive deletes whose target is only known at run time (a variable, a command's output, xargs input)",
    (found) =>
      `refusing a recursive delete whose target cannot be known before it runs: ${show(found.invocation)} deletes ${describeUnknown(found)}. Write the paths out literally (inside the project), so they can be checked.`,
    false,
  ),
];

function describeUnknown(found: Delete): string {
  const { raw } = found.target;
  if (raw === unknownInput) return found.invocation.input === "stdin" ? "whatever paths its input holds (xargs/parallel)" : "a path computed by the code";
  if (raw === "$(unknown)") return "a path computed by the code";
  if (/\$\(|`/.test(raw)) return `the output of a command (${raw})`;
  if (raw.includes("$")) return `${raw}, whose value is not known here`;
  return `${raw}, relative to a folder that is not known here (after \`cd\`)`;
}
