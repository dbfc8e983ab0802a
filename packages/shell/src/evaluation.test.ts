import { describe, expect, it } from "vitest";
import { decodeAnsiC } from "./ansi-c.js";
import { expandBraces } from "./brace-expansion.js";
import { expandText } from "./expansion.js";
import { analyze } from "./invocations.js";
import { transformText } from "./transforms.js";
import { unknownText } from "./unknown.js";

const environment = { cwd: "/project", home: "/home/ada", tmp: "/tmp" };
const argvs = (source: string) => analyze(source, environment).invocations.map((invocation) => [invocation.name, ...invocation.args].join(" "));

describe("decodeAnsiC", () => {
  it.each([
    ["\\x72\\x6d", "rm"],
    ["\\162\\155", "rm"],
    ["\\u0072m", "rm"],
    ["\\U0001F600", "😀"],
    ["a\\tb\\n", "a\tb\n"],
    ["\\'", "'"],
    ["\\e[0m", "\x1b[0m"],
    ["\\cA", "\x01"],
    ["\\q", "\\q"],
    ["\\x", "\\x"],
    ["plain", "plain"],
  ])("%s → %j", (body, text) => {
    expect(decodeAnsiC(body)).toBe(text);
  });
});

describe("expandBraces", () => {
  it.each([
    ["{rm,-rf,/}", ["rm", "-rf", "/"]],
    ["a{b,c}d", ["abd", "acd"]],
    ["{a,b}{1,2}", ["a1", "a2", "b1", "b2"]],
    ["x{a,{b,c}}", ["xa", "xb", "xc"]],
    ["{1..3}", ["1", "2", "3"]],
    ["{3..1}", ["3", "2", "1"]],
    ["{a..c}", ["a", "b", "c"]],
    ["{1..7..3}", ["1", "4", "7"]],
    ["file{,.bak}", ["file", "file.bak"]],
    ["'{a,b}'{c,d}", ["'{a,b}'c", "'{a,b}'d"]],
  ])("%s → %j", (raw, words) => {
    expect(expandBraces(raw)).toEqual(words);
  });
  it.each(["{}", "{a}", "'{a,b}'", '"{a,b}"', "${X:-a,b}", "$(echo {a,b})", "\\{a,b}", "{a..}", "{1..b}"])("%s does not expand", (raw) => {
    expect(expandBraces(raw)).toBeUndefined();
  });
  it("refuses to spell out more than its limit", () => {
    expect(expandBraces("{1..100000}")).toBe("too many");
    expect(expandBraces("{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}")).toBe("too many");
  });
});

describe("transformText", () => {
  it.each([
    ["tr", ["z", "r"], "zm -zf /", "rm -rf /"],
    ["tr", ["a-z", "A-Z"], "rm", "RM"],
    ["tr", ["[:upper:]", "[:lower:]"], "RM", "rm"],
    ["tr", ["-d", "x"], "rxm", "rm"],
    ["tr", ["-s", " "], "a   b", "a b"],
    ["rev", [], "/ fr- mr\n", "rm -rf /\n"],
    ["tac", [], "a\nb\n", "b\na\n"],
    ["cat", [], "rm", "rm"],
    ["sed", ["s/X/\\//"], "rm X", undefined],
    ["sed", ["s|X|/|"], "rm -rf X\n", "rm -rf /\n"],
    ["sed", ["-e", "s/a/b/g"], "aaa", "bbb"],
    ["sed", ["s/a.*/b/"], "aaa", undefined],
    ["sed", ["-i", "s/a/b/"], "aaa", undefined],
    ["tr", ["-c", "a", "b"], "abc", undefined],
    ["rev", ["file"], "abc", undefined],
    ["awk", ["{print}"], "abc", undefined],
  ])("%s %j on %j → %j", (name, args, input, output) => {
    expect(transformText(name, args, input)).toBe(output);
  });
});

describe("analyze evaluates before it names a command", () => {
  it.each([
    ["$'\\x72\\x6d' -rf /", "rm -rf /"],
    ["{rm,-rf,/}", "rm -rf /"],
    ["r$()m -rf /", "rm -rf /"],
    ["rm${IFS}-rf${IFS}/", "rm -rf /"],
    ["IFS=,; x=rm,-rf,/; $x", "rm -rf /"],
    ['set -- rm -rf /; "$@"', "rm -rf /"],
    ["coproc X { rm -rf /; }", "rm -rf /"],
    ["env --split-string='rm -rf /'", "rm -rf /"],
    ["echo 'rm -rf /' > x.sh; bash x.sh", "rm -rf /"],
    ["rev <<< '/ fr- mr' | bash", "rm -rf /"],
    ["unset D; rm -rf $D/", "rm -rf /"],
  ])("%s runs %s", (source, argv) => {
    expect(argvs(source)).toContain(argv);
  });

  it("reads a prefix assignment with both values", () => {
    expect(argvs("TMPDIR=/Users rm -rf $TMPDIR/x")).toEqual(expect.arrayContaining(["rm -rf /tmp/x", "rm -rf /Users/x"]));
  });

  it("runs a command in the folder env --chdir names", () => {
    expect(analyze("env --chdir=/ rm -rf x", environment).invocations[0]!.cwd).toBe("/");
  });

  it("lists commands named only at run time in unresolved", () => {
    const names = (source: string) => analyze(source, environment).unresolved.map((invocation) => invocation.name);
    expect(names("$CMD -rf /")).toEqual([unknownText]);
    expect(names("`cat f` x")).toHaveLength(1);
    expect(names("/bin/r? -rf /")).toEqual(["r?"]);
    // A run-time name is unknown whatever it holds, the user's editor included.
    expect(names('"$EDITOR" file; [ -f x ]; ls *.txt')).toEqual([unknownText]);
    expect(names("f() { $X; }")).toEqual([]); // never called: nothing runs
    expect(names("python3 -c 'import os; x = `${a}`'")).toEqual([]); // code read as shell is quiet
  });

  it("reports a shell reading output it cannot know, and a written script it cannot know", () => {
    expect(analyze("python3 gen.py | sh", environment).problems).toEqual([
      "sh runs the output of python3 as a script, and what that prints cannot be known here",
    ]);
    expect(analyze("make > x.sh; bash x.sh", environment).problems).toEqual([
      "the line writes x.sh and runs it, and what it writes there cannot be known here",
    ]);
    expect(analyze("cat script.sh | sh; bash script.sh", environment).problems).toEqual([]);
  });
});

// Literal text is read in runs up to the next `$` or backtick: a backtick inside a run still starts a substitution.
describe("expandText: literal runs stop at every substitution and expansion", () => {
  const scope = { lookup: (name: string) => (name === "V" ? ["v1"] : undefined), cwd: "/p" };
  it.each([
    ["a`b`c", [`a${unknownText}c`]],
    ["lit `x` more $V tail", [`lit ${unknownText} more v1 tail`]],
    ["$V`date`end", [`v1${unknownText}end`]],
    ["a$V/b", ["av1/b"]],
    ["no specials here", ["no specials here"]],
  ])("%s → %j", (text, values) => {
    expect(expandText(text, scope)).toEqual(values);
  });
});
