import { describe, expect, it } from "vitest";
import { analyze, type Invocation } from "./invocations.js";

/**
 * A loop's body runs any number of times: each command in it must be checked with every value and folder a
 * later pass may give it, whatever carries that value from one pass to the next (a variable, the folder, a
 * function, an alias, a trap, an export). Any shortcut in how passes are read or joined is attacked here.
 */
const environment = { cwd: "/project", home: "/home/ada", tmp: "/tmp" };

function everyInvocation(source: string): Invocation[] {
  const found: Invocation[] = [];
  const visit = (invocation: Invocation): void => {
    found.push(invocation);
    for (const child of invocation.nested) visit(child);
  };
  for (const invocation of analyze(source, environment).invocations) visit(invocation);
  return found;
}

/** The last word of every `rm` the line may run, nested ones included. */
function rmTargets(source: string): string[] {
  return everyInvocation(source)
    .filter((invocation) => invocation.name === "rm")
    .map((invocation) => invocation.args.at(-1) ?? "");
}

/** The folders every `rm` on the line may run in (undefined: not known). */
function rmFolders(source: string): (string | undefined)[] {
  return everyInvocation(source)
    .filter((invocation) => invocation.name === "rm")
    .map((invocation) => invocation.cwd);
}

describe("a loop's later passes: what a pass leaves reaches the commands of the next", () => {
  it.each([
    // A value that reaches the delete only on the second, third or fourth pass.
    ["a=/tmp/1; b=/tmp/2; for i in 1 2 3; do rm -rf $a; a=$b; b=~; done", "~"],
    ["a=/tmp/1; b=/tmp/2; c=/tmp/3; while x; do rm -rf $a; a=$b; b=$c; c=~; done", "~"],
    ["x=/tmp/1; for i in 1 2; do rm -rf $x; if c; then x=~; fi; done", "~"],
    ["x=/tmp/1; for i in 1 2; do rm -rf $x; c && x=~; done", "~"],
    ["x=/tmp/1; for i in 1 2; do rm -rf $x; case $i in 2) x=~;; esac; done", "~"],
    ["x=/tmp/1; for i in 1 2; do rm -rf $x; (x=/tmp/2); x=~; done", "~"],
    ["x=/tmp/1; for i in 1 2; do rm -rf $x; read x; x=~; done", "~"],
    ["x=/tmp/1; for i in 1 2; do rm -rf $x; export x=~; done", "~"],
    ["x=/tmp/1; for i in 1 2; do rm -rf $x; declare x=~; done", "~"],
    ["x=/tmp/1; for i in 1 2; do rm -rf $x; set -- ~; x=$1; done", "~"],
    ["x=/tmp/1; for i in 1 2; do rm -rf $x; continue; done; x=~", "/tmp/1"],
    ["x=/tmp/1; for i in 1 2; do rm -rf $x; x=~; continue; x=/tmp/2; done", "~"],
    ["x=/tmp/1; for i in 1 2; do rm -rf $x; for j in 1; do x=~; break; done; done", "~"],
    ["x=/tmp/1; for i in 1 2; do for j in 1 2; do rm -rf $x; done; x=~; done", "~"],
    // The head reads what the body sets.
    ["d=/tmp/1; while rm -rf $d; do d=~; done", "~"],
    ["d=/tmp/1; until rm -rf $d; do d=~; done", "~"],
    ["d=/tmp/1; for f in $d; do rm -rf $f; d=~; done", "/tmp/1"],
    ["d=/tmp/1; while [ -n $d ] && rm -rf $d; do d=~; done", "~"],
    // A function the body defines or redefines, called on a later pass.
    ["f() { rm -rf /tmp/1; }; for i in 1 2; do f; f() { rm -rf ~; }; done", "~"],
    ["for i in 1 2; do f; f() { rm -rf ~; }; done", "~"],
    ["f() { x=/tmp/1; }; for i in 1 2; do f; rm -rf $x; f() { x=~; }; done", "~"],
    ["x=/tmp/1; f() { rm -rf $x; }; for i in 1 2; do f; x=~; done", "~"],
    // An alias the body defines, used on a later pass (an agent's shell may expand it).
    ["for i in 1 2; do clean; alias clean='rm -rf ~'; done", "~"],
    ["alias clean='rm -rf /tmp/1'; for i in 1 2; do clean; alias clean='rm -rf ~'; done", "~"],
    // A trap set on any pass runs later, with what that pass left.
    ["x=/tmp/1; for i in 1 2; do trap 'rm -rf $x' EXIT; x=~; done", "~"],
    // `eval` and `source` run in this shell, on every pass.
    ["x=/tmp/1; for i in 1 2; do eval rm -rf $x; x=~; done", "~"],
    ["c='rm -rf /tmp/1'; for i in 1 2; do eval $c; c='rm -rf ~'; done", "~"],
    // Loops nested in a function, a subshell, a substitution, `sh -c`.
    ["f() { x=/tmp/1; for i in 1 2; do rm -rf $x; x=~; done; }; f", "~"],
    ["(x=/tmp/1; for i in 1 2; do rm -rf $x; x=~; done)", "~"],
    ["echo $(x=/tmp/1; for i in 1 2; do rm -rf $x; x=~; done)", "~"],
    ["sh -c 'x=/tmp/1; for i in 1 2; do rm -rf $x; x=~; done'", "~"],
    ["x=/tmp/1; cat list | while read l; do rm -rf $x; x=~; done", "~"],
  ])("%s → checks %s", (source, value) => {
    expect(rmTargets(source)).toContain(value);
  });

  it.each([
    // A `cd` on one pass moves where the next pass deletes.
    ["for d in a b; do rm -rf *; cd ~; done", undefined],
    ["for d in a b; do rm -rf *; cd $d; done", undefined],
    ["for i in 1 2; do rm -rf *; cd ..; done", undefined],
    ["while c; do rm -rf *; pushd /; done", undefined],
    ["for i in 1 2; do rm -rf *; eval 'cd ~'; done", undefined],
    ["for i in 1 2; do rm -rf *; c && cd ~; done", undefined],
    ["f() { cd ~; }; for i in 1 2; do rm -rf *; f; done", undefined],
    ["for i in 1 2; do rm -rf *; g; g() { cd /; }; done", undefined],
    ["while rm -rf *; do cd /; done", undefined],
  ])("%s → a pass after a cd deletes in a folder not known (%s) as well", (source, folder) => {
    expect(rmFolders(source)).toContain(folder);
  });

  it.each([
    // Bodies that change nothing a pass reads settle at once, with their exact values.
    ["for f in a b; do rm -rf /tmp/$f; done", ["/tmp/a", "/tmp/b"]],
    ["x=/tmp/1; for i in 1 2; do rm -rf $x; done", ["/tmp/1"]],
    ["x=/tmp/1; for i in 1 2; do rm -rf $x; x=/tmp/1; done", ["/tmp/1"]],
    ["x=/tmp/1; for i in 1 2; do rm -rf $x; (x=~); done", ["/tmp/1"]],
    ["x=/tmp/1; for i in 1 2; do rm -rf $x; echo $(x=~); done", ["/tmp/1"]],
    ["x=/tmp/1; for i in 1 2; do rm -rf $x; sh -c 'x=~'; done", ["/tmp/1"]],
  ])("%s → %j exactly", (source, targets) => {
    expect(new Set(rmTargets(source))).toEqual(new Set(targets));
  });

  it.each([
    "x=/tmp/1; for i in 1 2; do rm -rf $x; x=$x/a; done",
    "x=a; while c; do x=$x$x; done; rm -rf /tmp/$x",
    "for i in 1 2; do rm -rf $x; x=$(cat f); done",
    // A variable the line never set before the loop is the environment's: joined with a pass, unknown.
    "a=/tmp/1; for i in 1 2; do b=$a; a=~; done; rm -rf $b",
    "a=/tmp/1; for i in 1 2; do rm -rf $b; b=$a; a=~; done",
    "for i in 1 2; do rm -rf ${x:-/tmp/1}; x=~; done",
    "x=/tmp/1; for i in 1 2; do for j in 1 2; do rm -rf $x; y=~; done; x=$y; done",
    "f() { rm -rf $1; }; for i in 1 2; do f ${x:-/tmp/1}; x=~; done",
    'for i in 1 2; do trap "rm -rf $x" EXIT; x=~; done',
  ])("%s → a value that never settles, or the environment's, is unknown, never a confident one", (source) => {
    expect(rmTargets(source).some((target) => target.includes("$") || target.includes("\u{F8FF}"))).toBe(true);
  });
});

describe("a command with several argvs leaves the join of what each leaves", () => {
  // `d` holds two values: bash runs one of the argvs, so the state after it may be what either one leaves.
  const two = "if c; then d=/tmp/1; else d=~; fi; ";
  it.each([
    [`${two}for f in $d; do rm -rf $f; done`, "~"],
    [`${two}for f in a $d; do rm -rf $f; done`, "~"],
    [`${two}for f in $d; do rm -rf $f; done`, "/tmp/1"],
    [`${two}export x=$d; rm -rf $x`, "~"],
    [`${two}export x=$d; rm -rf $x`, "/tmp/1"],
    [`${two}local x=$d; rm -rf $x`, "~"],
    [`${two}declare x=$d; rm -rf $x`, "~"],
    [`${two}readonly x=$d; rm -rf $x`, "~"],
    [`${two}typeset x=$d; rm -rf $x`, "~"],
    [`${two}set -- $d; rm -rf $1`, "~"],
    [`${two}set -- $d; rm -rf $1`, "/tmp/1"],
    [`${two}set $d; rm -rf $1`, "~"],
    [`${two}for f in $d; do for g in $f; do rm -rf $g; done; done`, "~"],
    [`${two}f() { rm -rf $1; }; for f in $d; do f $f; done`, "~"],
    [`${two}for f in $d; do sh -c "rm -rf $f"; done`, "~"],
    [`${two}export x=$d; sh -c 'rm -rf $x'`, "~"],
    [`for d in /tmp/1 ~; do for f in $d; do rm -rf $f; done; done`, "~"],
    // What runs in this shell with each argv (a function, eval, source) starts from the state before the
    // command, and what follows sees every argv's outcome, not the last one's.
    [`${two}f() { x=$1; }; f $d; rm -rf $x`, "~"],
    [`${two}f() { x=$1; }; f $d; rm -rf $x`, "/tmp/1"],
    ["if c; then d=/tmp/1; else d=~; fi; f() { x=$1; }; f $d; rm -rf $x", "~"],
    ["if c; then d=~; else d=/tmp/1; fi; f() { x=$1; }; f $d; rm -rf $x", "~"],
    [`${two}eval x=$d; rm -rf $x`, "~"],
    [`${two}eval x=$d; rm -rf $x`, "/tmp/1"],
    [`${two}builtin eval x=$d; rm -rf $x`, "~"],
    [`${two}f() { export x=$1; }; f $d; sh -c 'rm -rf $x'`, "~"],
    [`${two}f() { return; }; f $d; x=$d; rm -rf $x`, "~"],
  ])("%s → checks %s", (source, value) => {
    expect(rmTargets(source)).toContain(value);
  });

  it.each([
    `${"if c; then d=/tmp/1; else d=/; fi; "}cd $d; rm -rf *`,
    `${"if c; then d=/tmp/1; else d=~; fi; "}pushd $d; rm -rf *`,
    `${"if c; then d=a; else d=b; fi; "}cd $d && rm -rf *`,
    `${"if c; then d=/; else d=/tmp/1; fi; "}f() { cd $1; }; f $d; rm -rf *`,
    `${"if c; then d=/tmp/1; else d=/; fi; "}f() { cd $1; }; f $d; rm -rf *`,
    `${"if c; then d='cd ~'; else d='cd /tmp'; fi; "}eval $d; rm -rf *`,
    `${"if c; then d='cd /tmp'; else d='cd ~'; fi; "}eval $d; rm -rf *`,
  ])("%s → the folder is not known after a cd to one of several folders", (source) => {
    expect(rmFolders(source)).toContain(undefined);
  });

  it.each([
    ["if c; then d=a; else d=a; fi; cd $d; rm -rf *", "/project/a"],
    ["d=/tmp/1; cd $d; rm -rf *", "/tmp/1"],
  ])("%s → one folder, however reached, stays known: %s", (source, folder) => {
    expect(rmFolders(source)).toEqual([folder]);
  });
});
