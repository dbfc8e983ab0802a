import { describe, expect, it } from "vitest";
import { analyze } from "../invocations.js";
import { readingOf } from "./test-helpers.js";

/** The command lines the jobs of a line run (the reader's nested invocations under parallel), and its problems. */
function jobs(command: string): { argvs: string[]; problems: string[] } {
  const analysis = analyze(command, { cwd: "/project", home: "/home/ada", tmp: "/tmp" });
  const argvs = analysis.invocations
    .filter((invocation) => invocation.name !== "parallel")
    .map((invocation) => [invocation.name, ...invocation.args].join(" "));
  return { argvs: [...new Set(argvs)], problems: analysis.problems };
}

describe("GNU parallel's jobs: the template with each argument after :::", () => {
  it.each([
    ["parallel find . -name foo ::: ok", ["find . -name foo ok"]],
    ["parallel busybox find . -name foo ::: ok", ["find . -name foo ok"]],
    ["parallel echo ::: a b", ["echo a", "echo b"]],
    ["parallel -j 2 echo ::: a", ["echo a"]],
    ["parallel -j2 -k echo {} ::: a b", ["echo a", "echo b"]],
    ["parallel -kj4 echo ::: a", ["echo a"]],
    ["parallel --jobs 4 --keep-order echo ::: a", ["echo a"]],
    ["parallel --keep echo ::: a", ["echo a"]],
    ["parallel --dry-run rm {} ::: a", ["rm a"]],
    ["parallel --line-buffer --no-notice echo ::: a", ["echo a"]],
    ["parallel gzip {.} ::: a.txt", ["gzip a"]],
    ["parallel echo {/} ::: d/a.txt", ["echo a.txt"]],
    ["parallel echo {//} ::: d/a.txt", ["echo d"]],
    ["parallel echo {/.} ::: d/a.txt", ["echo a"]],
    ["parallel echo {#} {%} ::: a", ["echo 1 1"]],
    ["parallel echo {1}-{2} ::: a b ::: x", ["echo a-x", "echo b-x"]],
    ["parallel echo ::: a b :::+ x y", ["echo a x", "echo b y"]],
    ["parallel -I @ echo @ ::: a", ["echo a"]],
  ])("%s runs %j", (command, expected) => {
    const found = jobs(command);
    expect(found.problems).toEqual([]);
    expect(found.argvs).toEqual(expected);
  });

  it.each([
    "parallel -j 4 echo ::: a",
    "parallel --dry-run echo ::: a",
    "ls | parallel -j4 gzip",
    "parallel --timeout 10 --retries 2 echo ::: a",
    "parallel -0 -d , echo ::: a",
  ])("%s: every option is one read here", (command) => {
    expect(readingOf(command)).not.toBe("unknown");
  });

  it.each([
    // options not read here: where or how the jobs run
    "parallel --pipe wc ::: a",
    "parallel --pipepart -a f wc",
    "parallel -S host echo ::: a",
    "parallel -Shost echo ::: a",
    "parallel --sshlogin host echo ::: a",
    "parallel --sshl host echo ::: a",
    "parallel --shebang echo ::: a",
    "parallel --plus echo {+/} ::: a",
    "parallel -N2 echo {1} {2} ::: a b",
    "parallel -X echo ::: a b",
    "parallel -m echo ::: a",
    "parallel --xargs echo ::: a",
    "parallel --arg-sep ,, echo ,, a",
    "parallel -J profile echo ::: a",
    "parallel --rpl '{x} s/a/b/' echo {x} ::: a",
    "parallel --frobnicate echo ::: a",
    "parallel --jo 4 echo ::: a",
    "parallel --joblog ~/.bashrc echo ::: a",
    "parallel --results out echo ::: a",
    "ls | parallel -S host gzip",
    "ls | parallel --pipe gzip",
    // Perl code in a replacement string
    "parallel echo '{= $_=`rm -rf ~` =}' ::: a",
    "parallel --tagstring '{= system(1) =}' echo ::: a",
    // arguments from files
    "parallel echo :::: list",
    "parallel echo ::: a :::: list",
    "parallel echo ::: a ::::+ list",
    // options or a shell from the environment
    "PARALLEL='--pipe' parallel echo ::: a",
    "PARALLEL_SHELL=/tmp/x parallel echo ::: a",
    "PARALLEL_SSH=/tmp/x parallel echo ::: a",
  ])("%s is unknown", (command) => {
    expect(readingOf(command)).toBe("unknown");
  });
});
