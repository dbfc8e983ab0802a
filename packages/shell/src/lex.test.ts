import { describe, expect, it } from "vitest";
import { analyze } from "./invocations.js";
import { lex } from "./lex.js";

/** `$[…]` is bash's old arithmetic: read to its matching `]`, as bash does (checked against bash 5.2). */
describe("$[…] is one expansion to its matching ]", () => {
  it.each([
    ["echo $[ 1 + 2 ] done", ["echo", "$[ 1 + 2 ]", "done"]],
    ["echo $[1<<X]", ["echo", "$[1<<X]"]],
    ["echo $[ a[1] + 2 ]x", ["echo", "$[ a[1] + 2 ]x"]],
    ['echo "$[ 1 ]"', ["echo", "$[ 1 ]"]],
  ])("%j lexes as %j", (source, words) => {
    expect(lex(source).tokens.map((token) => (token.kind === "word" ? token.text : token.kind))).toEqual(words);
  });

  it.each([
    // the `]` of `$[` ends it, not a `)` a `(` in it would need
    ["echo $(echo $[ ( ]); rm -rf ~", "rm"],
    ["echo $[ 1 << X ]\nrm -rf ~\nX", "rm"],
  ])("%j runs %s at the top level", (source, name) => {
    const analysis = analyze(source, { cwd: "/project", home: "/home/ada", tmp: "/tmp" });
    expect(analysis.invocations.find((invocation) => invocation.name === name)?.via).toEqual([]);
  });
});
