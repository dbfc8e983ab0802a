import { describe, expect, it } from "vitest";
import { analyze } from "./invocations.js";
import { lex } from "./lex.js";

/**
 * A quote or substitution left open at the end of the agent's line. Bash runs each complete top-level
 * command as soon as it has read it at a newline, then fails on the open one: the commands of the longest
 * complete prefix ending at a newline run, the rest runs nothing. Every case was run through bash 5.2 with
 * these `echo` markers: the second column is what it printed. Where bash reads a line whole although this
 * lexer could take a quote for open (`$'\''`, `"$'"`, heredoc bodies, comments, quotes in `$(…)`), the line
 * is read whole or refused, never cut.
 */

const environment = { cwd: "/project", home: "/home/ada", tmp: "/tmp" };
/** The markers (`M1`, …) the echo commands read on the line print, once each, in order. */
function markers(source: string): { markers: string[]; problems: string[] } {
  const analysis = analyze(source, environment);
  const printed = analysis.invocations.filter((invocation) => invocation.name === "echo").map((invocation) => invocation.args.join(" "));
  return { markers: [...new Set(printed.filter((text) => /^M\d/.test(text)))], problems: analysis.problems };
}
const onlyMarkers = (printed: readonly string[]) => printed.filter((text) => /^M\d/.test(text));

const runsBefore: [string, string[]][] = [
  ["echo 'M1", []],
  ['echo "M1', []],
  ["echo $(echo M1", []],
  ["echo `echo M1", []],
  ["echo ${x:-M1", []],
  ["echo $'M1", []],
  ["echo <(echo M1", []],
  ["echo M1; echo 'M2", []],
  ['echo M1 && echo "M2', []],
  ["echo M1\necho 'M2", ["M1"]],
  ["echo M1\necho 'M2\nmore\nlines", ["M1"]],
  ["echo M1\n\necho M2; echo 'M3", ["M1"]],
  ["echo M1\\\necho 'M2", []],
  ["echo M1 |\necho 'M2", []],
  ["echo M1 &&\necho 'M2", []],
  ["echo M1\necho M2 <<E\nbody\nE\necho 'M3", ["M1", "M2"]],
  ["echo M1\necho M2 <<E\nbody 'q\nE\necho 'M3", ["M1", "M2"]],
  ["echo M1; (echo M2\necho M3)\necho 'M4", ["M1", "M2", "M3"]],
  ['echo M1\necho "M2\nM3"\necho \'M4', ["M1", "M2\nM3"]],
  ["f() {\necho M1\n}\necho 'M2", []],
  ["case a in\na) echo M1;;\nesac\necho 'M2", ["M1"]],
  ['echo M1\nfor i in M2; do echo $i; done\necho "M3', ["M1", "M2"]],
  ["echo M1\necho ${x:-'M2}", ["M1"]],
  ['echo M1\necho "${x:-\'}"', ["M1"]],
  ["echo M1\necho $'M2\\'", ["M1"]],
  ['echo M1\necho "M2\\"', ["M1"]],
  ["echo M1 # it's\necho 'M2", ["M1"]],
  ["echo M1\necho M2 'M3\necho M4", ["M1"]],
  ["echo M1\necho M2#'", ["M1"]],
  ["echo M1 ;\necho 'M2", ["M1"]],
  ["echo M1 &\necho 'M2", ["M1"]],
  ["echo M1 | # a comment\necho 'M2", []],
  ['echo M1\necho $"M2', ["M1"]],
];
// A group or compound command still open before the quote, or a quote open inside the text of an open
// substitution (read as a script of its own): bash runs what came before it, but the reader does not cut
// the line, so these stay a problem.
const openCompound: [string, string[]][] = [
  ["echo M1\necho $(echo M2\necho 'M3)", ["M1"]],
  ['echo M1\necho "$(echo \')")', ["M1"]],
  ["echo M1\necho `echo 'M2", ["M1"]],
  ["echo M1\necho <(echo 'M2)", ["M1"]],
  ["echo M1\nif true; then\necho M2\necho 'M3", ["M1"]],
  ["echo M1\n{ echo M2\necho 'M3", ["M1"]],
  ["echo M1\nwhile false; do\necho 'M2", ["M1"]],
  ["echo M1\ncase a in\na) echo 'M2", ["M1"]],
];
// Lines bash reads whole (it runs every line): the reader must read them whole, or refuse.
const readWhole: [string, string[] | "refused"][] = [
  ['echo M1\necho "$\'"; echo M2', ["M1", "$'", "M2"]],
  ["echo M1\necho \"$'M2'\"", ["M1", "$'M2'"]],
  ["echo M1\necho $(echo $'\\''); echo M2", ["M1", "'", "M2"]],
  ["echo M1\necho ${x:-$'\\''}; echo M2", ["M1", "'", "M2"]],
  ["echo M1\necho ${x:-'}'}; echo M2", ["M1", "}", "M2"]],
  ["echo M1\necho $'\\''; echo M2", ["M1", "'", "M2"]],
  ["echo M1 #'\necho M2", ["M1", "M2"]],
  ["echo M1\n(echo M2)#'\necho M3", ["M1", "M2", "M3"]],
  ["echo M1\necho M2 <<E\nbody 'q\nE\necho M3", ["M1", "M2", "M3"]],
  ["echo M1\necho M2 <<'E'\n'\nE\necho M3", ["M1", "M2", "M3"]],
  ['echo M1\necho `echo "\'"`; echo M2', ["M1", "'", "M2"]],
  ['echo M1\necho "$(echo "\'")"; echo M2', ["M1", "'", "M2"]],
  ['echo M1\necho $"M2\'"', ["M1", "M2'"]],
  ['echo M1\necho $"\'"; echo M2', ["M1", "'", "M2"]],
  ["echo M1\necho \\'; echo M2", ["M1", "'", "M2"]],
  ['echo M1\necho "\\"\'"; echo M2', ["M1", "\"'", "M2"]],
  ["echo M1\necho {a,'b}'; echo M2", ["M1", "{a,b}", "M2"]],
  ["echo M1\ncat <<E\n$(echo ')\nE\necho M2", "refused"],
  ["echo M1\nx=$(case a in a)#'\n echo M2;; esac)\necho $x", "refused"],
  ["echo M1\necho $((1<<X\n)) 'a\nX\n))'\necho M2", "refused"],
  ["echo M1\necho $((1<<X\n)) 'a\nX\n))\n'\necho M2", "refused"],
  ["echo M1\necho $(echo a;#')\n); echo M2", ["M1", "a", "M2"]],
  ["echo M1\necho $(( 1 #' ))\necho M2", "refused"],
  ["echo M1\necho $(cat <<X\n'\nX\n); echo M2", ["M1", "'", "M2"]],
  ["echo M1\necho `echo 'x`; echo M2", "refused"],
  ['echo M1\necho "`echo \'`"; echo M2', "refused"],
  ["echo M1\r\necho 'M2", "refused"],
  ["echo M1\ncat <<E\nbody\necho 'M2", "refused"],
  ["echo M1\n((1 + 2))\necho 'M2", "refused"],
];

describe("a quote or substitution open at the end: what bash runs before it is read, the quote is no problem", () => {
  it.each(runsBefore)("%j runs %j", (source, printed) => {
    const found = markers(source);
    expect(found.problems).toEqual([]);
    expect(found.markers).toEqual(expect.arrayContaining(onlyMarkers(printed)));
  });

  it.each(openCompound)("%j runs %j, and its open construct is a problem", (source, printed) => {
    const found = markers(source);
    expect(found.problems).not.toEqual([]);
    expect(found.markers).toEqual(expect.arrayContaining(onlyMarkers(printed)));
  });
});

describe("a line bash reads whole is read whole or refused, never cut", () => {
  it.each(readWhole)("%j", (source, printed) => {
    const found = markers(source);
    if (printed === "refused") expect(found.problems).not.toEqual([]);
    else {
      expect(found.problems).toEqual([]);
      expect(found.markers).toEqual(onlyMarkers(printed));
    }
  });

  it.each([
    ["rm -rf ~\necho 'x", "rm"],
    ['echo ok\nrm -rf ~\necho "x', "rm"],
    ["(rm -rf ~)\necho $(x", "rm"],
    ["cat <<E\nbody\nE\nrm -rf ~\necho `x", "rm"],
    // bash runs nothing of these, but the reader reads what the agent meant
    ["rm -rf ~ 'x", "rm"],
    ["echo ok; rm -rf ~; echo 'x", "rm"],
    ["echo $(rm -rf ~", "rm"],
    ['echo "`rm -rf ~', "rm"],
  ])("%j reads %s", (source, name) => {
    expect(analyze(source, environment).invocations.map((invocation) => invocation.name)).toContain(name);
  });
});

describe("the lexer trusts an open construct only where its reading was exact", () => {
  it.each([
    "echo 'x",
    "echo a\necho 'x",
    'echo a\n\necho "x',
    "cat <<E\nbody\nE\necho 'x",
    "echo {a,'b}",
    "echo a\\\necho 'x",
    "echo $'x\\'",
    'echo "$(echo \')"',
  ])("%j is open at the end", (source) => {
    expect(lex(source).openAtEnd).toBe(true);
  });

  it.each([
    "echo $((1)) 'x",
    "((1))\necho 'x",
    "echo $(echo a # c\n) 'x",
    "echo $(cat <<E\nE\n) 'x",
    "echo $(case a in a) echo;; esac) 'x",
    "echo 'x\r",
    "cat <<E\necho 'x",
  ])("%j is not trusted to be open", (source) => {
    expect(lex(source).openAtEnd).toBeUndefined();
  });
});
