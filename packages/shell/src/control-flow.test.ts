import { describe, expect, it } from "vitest";
import { analyze } from "./invocations.js";
import { isUnknown } from "./unknown.js";

const environment = { cwd: "/project", home: "/home/ada", tmp: "/tmp" };

/** The targets every `rm` on the line may get (the last word of each), in the order read. */
function rmTargets(source: string): string[] {
  return analyze(source, environment)
    .invocations.filter((invocation) => invocation.name === "rm")
    .map((invocation) => invocation.args.at(-1) ?? "");
}

/** The targets every `rm` on the line may get, nested ones (in `$(…)`, `sh -c`, a script run) included. */
function nestedRmTargets(source: string): string[] {
  return analyze(source, environment).invocations.flatMap(function all(invocation): string[] {
    const own = invocation.name === "rm" ? [invocation.args.at(-1) ?? ""] : [];
    return [...own, ...invocation.nested.flatMap(all)];
  });
}

/** A target the reader does not claim to know: left as written (`$d`) or marked unknown. */
const unknownTarget = (target: string) => target.includes("$") || isUnknown(target);

describe("control flow: a command sees every value a branch may leave", () => {
  // [line, a value the delete must be checked with]
  it.each([
    ["if c; then d=/tmp/x; else d=~; fi; rm -rf $d", "~"],
    ["if c; then d=~; else d=/tmp/x; fi; rm -rf $d", "/tmp/x"],
    ["if c; then d=~; else d=/tmp/x; fi; rm -rf $d", "~"],
    ["d=~; if c; then d=/tmp/x; fi; rm -rf $d", "~"],
    ["d=~\nif c\nthen\n  d=/tmp/x\nfi\nrm -rf $d", "~"],
    ["if a; then d=/tmp/1; elif b; then d=~; else d=/tmp/2; fi; rm -rf $d", "~"],
    ["d=/tmp/0; if a; then d=/tmp/1; elif b; then d=/tmp/2; elif c; then d=~; fi; rm -rf $d", "~"],
    ["d=~; true && d=/tmp/x; rm -rf $d", "~"],
    ["d=/tmp/x; true || d=~; rm -rf $d", "~"],
    ["d=~; c && d=/tmp/a && d=/tmp/b; rm -rf $d", "~"],
    ["d=~; c && d=/tmp/a && d=/tmp/b; rm -rf $d", "/tmp/a"],
    ["d=~; c || d=/tmp/a || d=/tmp/b; rm -rf $d", "~"],
    ["d=~; a && b || d=/tmp/x; rm -rf $d", "~"],
    ["d=/tmp/x; a || d=~ && rm -rf $d", "/tmp/x"],
    ["d=/tmp/x; a || d=~ && rm -rf $d", "~"],
    ['d=/tmp/x; [ -n "$y" ] && { d=~; }; rm -rf $d', "~"],
    ["d=/tmp/x; true && if c; then d=~; fi; rm -rf $d", "~"],
    ["d=/tmp/y; case $1 in a) d=/tmp/x;; b) d=~;; esac; rm -rf $d", "~"],
    ["d=/tmp/x; case $1 in a) d=~;; esac; rm -rf $d", "~"],
    ["d=/tmp/x; case $1 in a) d=~;; esac; rm -rf $d", "/tmp/x"],
    ["d=/tmp/x; case $1 in\n  a|b) d=~ ;;\n  *) : ;;\nesac\nrm -rf $d", "~"],
    ["d=~; case $1 in a) d=/tmp/x ;& b) rm -rf $d;; esac", "~"],
    ["d=~; case $1 in a) d=/tmp/x ;& b) rm -rf $d;; esac", "/tmp/x"],
    ["d=/tmp/y; case $1 in a) d=~ ;;& b) rm -rf $d;; esac", "~"],
    ["for d in /tmp/x ~; do rm -rf $d; done", "~"],
    ["x=/tmp/a; for i in 1 2; do rm -rf $x; x=~; done", "~"],
    ["x=/tmp/a; for i in 1 2; do rm -rf $x; x=~; done", "/tmp/a"],
    ["x=/tmp/a; y=/tmp/b; for i in 1 2 3; do rm -rf $x; x=$y; y=~; done", "~"],
    ['x=/tmp/a; while read l; do rm -rf "$x"; x=~; done < list', "~"],
    ["x=/tmp/a; until false; do rm -rf $x; x=~; done", "~"],
    ["d=/tmp/x; select s in a b; do rm -rf $d; d=~; done", "~"],
    ["x=/tmp/a\nfor i in 1 2\ndo\n  rm -rf $x\n  x=~\ndone", "~"],
    ["d=/tmp/y; for i in 1; do d=~; break; d=/tmp/x; done; rm -rf $d", "~"],
    ["d=/tmp/z; for i in 1; do for j in 2; do d=~; break 2; d=/tmp/x; done; d=/tmp/y; done; rm -rf $d", "~"],
    ["d=/tmp/x; for i in 1 2; do rm -rf $d; d=~; continue; d=/tmp/y; done", "~"],
    ["d=~; for i in $(cat f); do d=/tmp/x; done; rm -rf $d", "~"],
    ["x=/tmp/x; for a in 1; do for b in 2; do rm -rf $x; x=~; done; done", "~"],
    ["x=/tmp/a; for i in 1 2; do if c; then rm -rf $x; else x=~; fi; done", "~"],
    ["x=/tmp/a; while c; do case $i in a) rm -rf $x;; b) x=~;; esac; done", "~"],
    ["f() { rm -rf /tmp/x; }; if c; then f() { rm -rf ~; }; fi; f", "~"],
    ["f() { rm -rf ~; }; false && f() { :; }; f", "~"],
    ["f() { d=~; [ c ] && return; d=/tmp/x; }; f; rm -rf $d", "~"],
    ["f() { d=~; if c; then return 1; fi; d=/tmp/x; }; f; rm -rf $d", "~"],
    ["f() { rm -rf $d; }; d=/tmp/x; for i in 1 2; do f; d=~; done", "~"],
    ["d=/tmp/x; g() { d=~; }; c && g; rm -rf $d", "~"],
  ])("%s → checks %s", (source, value) => {
    expect(rmTargets(source)).toContain(value);
  });

  it.each([
    "if c; then :; elif b; then d=~; fi; rm -rf $d",
    "if c; then d=/tmp/x; fi; rm -rf $d",
    "case $1 in a) d=/tmp/x;; b) d=/tmp/y;; esac; rm -rf $d",
    "for i in 1; do d=/tmp/x; break; done; rm -rf $d",
    "c && d=/tmp/x; rm -rf $d",
    "x=/tmp/a; for i in 1 2; do rm -rf $x; x=$x/sub; done",
    'for f in a b c; do p="$p $f"; done; rm -rf $p',
  ])("%s → the target is unknown, never a confident value", (source) => {
    expect(rmTargets(source).some(unknownTarget)).toBe(true);
  });

  it.each([
    ["cd /tmp/x || cd ~; rm -rf *", undefined],
    ["CDPATH=/; cd etc; rm -rf *", undefined],
    ["export CDPATH=~:.; cd src && rm -rf *", undefined],
    ["if c; then cd ~; fi; rm -rf *", undefined],
    ["[ -d build ] && cd build; rm -rf *", undefined],
    ["for d in a b; do cd $d; done; rm -rf *", undefined],
    ["cd build && rm -rf *", "/project/build"],
    ["mkdir -p build && cd build && rm -rf *", "/project/build"],
    ["cd build || exit 1; rm -rf *", "/project/build"],
    ["if c; then cd build; else cd build; fi; rm -rf *", "/project/build"],
    ["(cd ~); rm -rf *", "/project"],
    ["echo | cd ~; rm -rf *", "/project"],
    ["echo a | while read l; do cd ~; done; rm -rf *", "/project"],
    ["eval 'cd ~'; rm -rf *", "/home/ada"],
    ["command eval 'cd ~'; rm -rf *", "/home/ada"],
    ["echo 'cd ~' > /tmp/go.sh; source /tmp/go.sh; rm -rf *", "/home/ada"],
    ["bash -c 'cd ~'; rm -rf *", "/project"],
    ["CDPATH=/; cd ./etc; rm -rf *", "/project/etc"],
  ])("%s → rm runs in %s", (source, cwd) => {
    const rm = analyze(source, environment).invocations.filter((invocation) => invocation.name === "rm");
    expect(rm.map((invocation) => invocation.cwd)).toEqual([cwd]);
  });

  // Straight lines and branches that agree keep their exact values: joining is not guessing.
  it.each([
    ["d=~; d=/tmp/x; rm -rf $d", ["/tmp/x"]],
    ["if c; then d=/tmp/x; else d=/tmp/y; fi; rm -rf $d", ["/tmp/x", "/tmp/y"]],
    ["d=/tmp/x; (d=~); rm -rf $d", ["/tmp/x"]],
    ["d=/tmp/x; echo | d=~; rm -rf $d", ["/tmp/x"]],
    ["d=/tmp/x; echo a | while read l; do d=~; done; rm -rf $d", ["/tmp/x"]],
    ["d=/tmp/x; while c; do d=~; done | cat; rm -rf $d", ["/tmp/x"]],
    ["f() { rm -rf ~; }; f() { rm -rf /tmp/x; }; f", ["/tmp/x"]],
    ["if [ -d build ]; then rm -rf build; fi", ["build"]],
    ['for f in *.log; do rm "$f"; done', ["*.log"]],
  ])("%s → %j exactly", (source, targets) => {
    expect(new Set(rmTargets(source))).toEqual(new Set(targets));
  });

  it.each(["f() { rm -rf $d; d=~; f; }; d=/tmp/x; f", 'f() { rm -rf "$1"; f ~; }; f /tmp/x', "f() { g; }; g() { d=~; f; }; d=/tmp/x; f"])(
    "%s → recursion with other values is a problem",
    (source) => {
      expect(analyze(source, environment).problems.join(" ")).toMatch(/calls itself/);
    },
  );

  it("a recursive call that starts where the first did is followed once (a fork bomb is still read)", () => {
    const analysis = analyze(":(){ :|:& };:", environment);
    expect(analysis.problems).toEqual([]);
    expect(analysis.invocations.filter((invocation) => invocation.name === ":").length).toBeGreaterThan(1);
  });

  it.each([
    "for i in 1; do if c; then x; fi; done",
    "if a; then while b; do c; done; elif d; then for e in f; do g; done; else case $h in i) j;; esac; fi",
    "while c; do until d; do e; done; done",
    "x | while read l; do if c; then y; fi; done | sort",
    "for i in 1 2\ndo\n  case $i in\n    1) echo one ;;\n    *) echo other ;;\n  esac\ndone",
  ])("%s → constructs nested on one line are read with confidence", (source) => {
    expect(analyze(source, environment).problems).toEqual([]);
  });

  it.each([
    ["if c; then rm x", /never closed/],
    ["for x in a; do rm x", /never closed/],
    ["while c; rm x; done", /"do"|"done"/],
    ["fi", /not expect/],
    ["echo a; done", /not expect/],
    ["case x in a) rm x;;", /never closed/],
  ])("%s → bash refuses it, so the reader does", (source, problem) => {
    expect(analyze(source, environment).problems.join(" ")).toMatch(problem);
  });

  // A loop's read-ahead passes skip what runs in a shell of its own (substitutions, `sh -c`, programs): what
  // runs in this shell (`eval`, `source`, function calls, assignments) must still reach the next pass.
  it.each([
    ["x=/tmp/a; for i in 1 2; do rm -rf $x; eval 'x=~'; done", "~"],
    ["x=/tmp/a; for i in 1 2; do rm -rf $x; eval x=~; done", "~"],
    ["x=/tmp/a; for i in 1 2; do rm -rf $x; command eval 'x=~'; done", "~"],
    ["x=/tmp/a; for i in 1 2; do rm -rf $x; builtin eval 'x=~'; done", "~"],
    ["x=/tmp/a; while c; do rm -rf $x; eval 'eval x=~'; done", "~"],
    ["echo 'x=~' > /tmp/s.sh; x=/tmp/a; for i in 1 2; do rm -rf $x; source /tmp/s.sh; done", "~"],
    ["echo 'x=~' > /tmp/s.sh; x=/tmp/a; until c; do rm -rf $x; . /tmp/s.sh; done", "~"],
    ["f() { x=~; }; x=/tmp/a; for i in 1 2; do rm -rf $x; f; done", "~"],
    ["x=/tmp/a; for i in 1 2; do rm -rf $x; x=$(echo ~); done", "~"],
    ["x=/tmp/a; for i in 1 2; do rm -rf $x; eval 'cd ~'; x=$PWD; done", "/home/ada"],
    ["x=/tmp/a; for i in 1 2; do rm -rf $x; [ c ] && eval 'x=~'; done", "~"],
    ["x=/tmp/a; for i in 1 2; do for j in 3; do rm -rf $x; done; eval 'x=~'; done", "~"],
  ])("%s → the read-ahead still carries what runs in this shell: checks %s", (source, value) => {
    expect(rmTargets(source)).toContain(value);
  });

  it.each([
    ["for i in 1 2; do echo $(rm -rf ~); done", "~"],
    ["while c; do x=$(rm -rf ~); done", "~"],
    ["for i in 1 2; do sh -c 'rm -rf ~'; done", "~"],
    ['d=/tmp/x; for i in 1 2; do bash -c "rm -rf $d"; d=~; done', "~"],
    ["for i in 1 2; do cat <(rm -rf ~); done", "~"],
    ["for i in 1 2; do find . -exec rm -rf ~ \\;; done", "~"],
    ["for i in 1 2; do echo `rm -rf ~`; done", "~"],
    ['for i in 1 2; do for j in 3 4; do echo "$(rm -rf ~)"; done; done', "~"],
    ['d=/tmp/x; for i in 1 2; do echo "$(rm -rf $d)"; d=~; done', "~"],
    ['until c; do node -e \'require("child_process").execSync("rm -rf ~")\'; done', "~"],
  ])("%s → what a loop body runs in a shell of its own is read on the pass that records: checks %s", (source, value) => {
    expect(nestedRmTargets(source)).toContain(value);
  });

  // A pass may run a file the pass before it wrote: the loop is read again while its writes change the files.
  it.each([
    ['for i in 1 2; do ./s.sh; echo "rm -rf ~" > s.sh; done', "~"],
    ['for i in 1 2; do bash s.sh; echo "rm -rf ~" > s.sh; done', "~"],
    ['for i in 1 2; do sh ./s.sh; printf "rm -rf ~" > s.sh; done', "~"],
    ['while c; do . ./x; echo "rm -rf ~" > x; done', "~"],
    ['until c; do source x; echo "rm -rf ~" | tee x; done', "~"],
    ['for i in 1 2 3; do ./c.sh; cat b > c.sh; echo "rm -rf ~" > b; done', "~"],
    ['for i in 1 2; do ./c.sh; cp b.sh c.sh; echo "rm -rf ~" > b.sh; done', "~"],
    ['for i in 1 2 3 4 5 6; do bash s.sh; echo "rm -rf ~" >> s.sh; done', "~"],
    ['for i in 1 2; do for j in 1; do ./s.sh; done; echo "rm -rf ~" > s.sh; done', "~"],
  ])("%s → a later pass runs what an earlier one wrote: checks %s", (source, value) => {
    expect(nestedRmTargets(source)).toContain(value);
  });

  it.each([
    "for i in 1 2; do bash s.sh; echo ls >> s.sh; done",
    'n=0; while c; do echo "$n" >> s.sh; n=1; done; bash s.sh',
    "for i in 1 2; do echo ls >> s.sh; done; ./s.sh",
  ])("%s → a file that grows on every pass holds what is not known, so running it is refused", (source) => {
    expect(analyze(source, environment).problems.join(" ")).toMatch(/cannot be known/);
  });

  it.each(['for f in a b; do echo "x $f" >> log.txt; done; cat log.txt', 'for i in $(seq 10); do echo "line $i" | tee -a out.txt; done'])(
    "%s → a loop that only appends to a log is no problem",
    (source) => {
      expect(analyze(source, environment).problems).toEqual([]);
    },
  );

  it.each([
    'echo "rm -rf ~" > $T; ./s.sh',
    'echo "rm -rf ~" > "$(cat name)"; bash s.sh',
    'printf "rm -rf ~" | tee "$X"; . ./x',
    'for i in 1 2; do ./s.sh; echo "rm -rf ~" > $T; done',
  ])("%s → a file written under a name only known at run time may be the script run after it: refused", (source) => {
    expect(analyze(source, environment).problems.join(" ")).toMatch(/only known when it runs/);
  });

  it("a hostile nest of loops is bounded, and fails closed", () => {
    const source = `${"for i in 1 2; do x=$x$i; ".repeat(12)}rm -rf $x${"; done".repeat(12)}`;
    const analysis = analyze(source, environment);
    expect(rmTargets(source).every(unknownTarget)).toBe(true);
    expect(analysis.invocations.length).toBeLessThan(6_000);
  });
});
