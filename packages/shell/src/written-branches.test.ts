import { describe, expect, it } from "vitest";
import { analyze } from "./invocations.js";
import { rmTargets, testEnvironment as environment } from "./test-helpers.js";

/**
 * The files a line writes and then runs: a write that may not happen (in a branch, a later step of a chain,
 * a loop's pass, a trap, one of several argvs or targets) leaves the file holding either text. The reader
 * must not trust the last write over an earlier one that may still be there.
 */
const danger = "echo 'rm -rf ~' > a.sh; ";

/** Refused as unknown, or read with the delete in it: never read as only the harmless text. */
function seesDanger(source: string): boolean {
  return rmTargets(source).includes("~") || analyze(source, environment).problems.some((problem) => /cannot be known/.test(problem));
}

describe("a write that may not happen leaves what the file held before", () => {
  it.each([
    `${danger}if c; then echo hi > a.sh; fi; ./a.sh`,
    `${danger}if c; then :; else echo hi > a.sh; fi; ./a.sh`,
    `${danger}if c; then :; elif d; then echo hi > a.sh; fi; bash a.sh`,
    `${danger}c && echo hi > a.sh; ./a.sh`,
    `${danger}c || echo hi > a.sh; sh a.sh`,
    `${danger}c && echo hi | tee a.sh; ./a.sh`,
    `${danger}case $1 in x) echo hi > a.sh;; esac; ./a.sh`,
    `${danger}for i in $(ls); do echo hi > a.sh; done; ./a.sh`,
    `${danger}while c; do echo hi > a.sh; done; source a.sh`,
    `${danger}until c; do echo hi > a.sh; done; . ./a.sh`,
    `${danger}if c; then f=a.sh; else f=b.sh; fi; echo hi > $f; ./a.sh`,
    `${danger}if c; then f=a.sh; else f=b.sh; fi; echo hi | tee $f; ./a.sh`,
    `${danger}echo hi > h.sh; c && cp h.sh a.sh; ./a.sh`,
    `${danger}echo hi > h.sh; if c; then f=a.sh; else f=b.sh; fi; cp h.sh $f; ./a.sh`,
    `${danger}f() { echo hi > a.sh; }; c && f; ./a.sh`,
    `${danger}if c; then g() { echo hi > a.sh; }; else g() { :; }; fi; g; ./a.sh`,
    `${danger}[ -f x ] && { echo hi > a.sh; }; ./a.sh`,
    `${danger}{ c && echo hi > a.sh; }; ./a.sh`,
    `${danger}if c; then d && echo hi > a.sh; fi; ./a.sh`,
    `${danger}trap 'echo hi > a.sh' EXIT; ./a.sh`,
  ])("%s → the delete is still seen, or the file is unknown", (source) => {
    expect(seesDanger(source)).toBe(true);
  });

  it.each([
    // One of several targets: each file may get the text.
    "if c; then f=a.sh; else f=b.sh; fi; echo 'rm -rf ~' | tee $f; ./b.sh",
    "if c; then f=a.sh; else f=b.sh; fi; echo 'rm -rf ~' > $f; ./b.sh",
    "echo 'rm -rf ~' > x.sh; if c; then f=a.sh; else f=b.sh; fi; cp x.sh $f; ./b.sh",
    "echo 'rm -rf ~' > x.sh; if c; then f=a.sh; else f=b.sh; fi; mv x.sh $f; bash b.sh",
    // A write that may happen, to a file the line did not write before: its text is read.
    "if c; then echo 'rm -rf ~' > a.sh; fi; ./a.sh",
    "c && echo 'rm -rf ~' > a.sh; ./a.sh",
    "for i in 1; do echo 'rm -rf ~' > a.sh; done; ./a.sh",
  ])("%s → the script run holds the delete", (source) => {
    expect(rmTargets(source)).toContain("~");
  });

  it.each([
    "echo hi > a.sh; ./a.sh",
    "echo hi > a.sh && chmod +x a.sh && ./a.sh",
    "mkdir -p x && cat > x/run.sh <<'EOF'\necho hi\nEOF\nbash x/run.sh",
    "echo 'rm -rf ~' > a.sh; echo hi > a.sh; ./a.sh",
    "echo hi > a.sh; c && echo hi > a.sh; ./a.sh",
    // Within one chain, a later step runs only after the earlier ones: the file holds what they wrote.
    "echo a > x.sh && echo b >> x.sh && bash x.sh",
    "echo '#!/bin/sh' > x.sh && echo ls >> x.sh && chmod +x x.sh && ./x.sh",
    "if c; then echo a > x.sh; echo b >> x.sh; bash x.sh; fi",
    "for i in 1; do echo a > x.sh && echo b >> x.sh && bash x.sh; done",
    'for f in a b; do echo "x $f" >> log.txt; done; cat log.txt',
  ])("%s → writes that surely happen, or change nothing, stay known", (source) => {
    expect(analyze(source, environment).problems).toEqual([]);
  });
});
