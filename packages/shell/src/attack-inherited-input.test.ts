import { describe, expect, it } from "vitest";
import { commandNames, problemsOf as problems } from "./test-helpers.js";

/**
 * A program that reads its code on standard input (a shell with no script, `source /dev/stdin`, `python3`
 * with no program) reads what its own pipe or redirect gives it. When that input comes from around it
 * instead (a block's redirect, a function call's, `exec < …`, a `>(…)` file, another descriptor), the
 * reader does not follow it there: the code is unknown, a problem. Checked against bash 5.2.
 */

describe("a program reading code from an input it inherits is a problem", () => {
  it.each([
    "{ bash; } <<< 'echo hi'",
    "( sh ) < script.sh",
    "echo 'echo hi' | { bash; }",
    "echo 'echo hi' | ( bash )",
    "f() { bash; }; f <<< 'echo hi'",
    "f() { bash; }; echo 'echo hi' | f",
    "if true; then bash; fi <<< 'echo hi'",
    "until false; do sh; break; done < script.sh",
    "exec < script.sh; bash",
    "exec 3< script.sh; bash <&3",
    "bash 0<&3",
    "{ source /dev/stdin; } <<< 'echo hi'",
    "echo 'echo hi' | bash -c 'source /dev/stdin'",
    "echo 'echo hi' | bash -c bash",
    "cat script.sh > >(bash)",
    "tee >(sh) < script.sh",
    "{ python3; } <<< 'print(1)'",
    "{ node; } <<< 'console.log(1)'",
  ])("%s", (line) => {
    expect(problems(line).some((problem) => problem.includes("comes from around it"))).toBe(true);
  });
});

describe("a descriptor file is read as the command's input", () => {
  it.each(["bash /dev/fd/3 3<<< 'rm -rf ~'", "bash /proc/self/fd/3 3<<< 'rm -rf ~'", "source /dev/fd/4 4<<< 'rm -rf ~'", ". /proc/$$/fd/0 <<< 'rm -rf ~'"])(
    "%s runs rm",
    (line) => {
      const names = commandNames(line);
      expect(names).toContain("rm");
    },
  );
});

describe("inputs a program reads for data, or its own input, are no problem", () => {
  it.each([
    "bash",
    "bash <<< 'echo hi'",
    "echo 'echo hi' | bash",
    "{ cat; } <<< x",
    '{ read -r line; echo "$line"; } < notes.txt',
    'while read -r f; do bash scripts/check.sh "$f"; done < list',
    "f() { cat; }; f <<< hi",
    "f() { bash -c 'echo hi'; }; f < /dev/null",
    "exec 3< notes.txt; read -r line <&3",
    "exec > log.txt 2>&1; bash -c 'echo hi'",
    "diff <(sort a) <(sort b)",
    "tee >(wc -l) < notes.txt",
    "{ bash <<< 'echo hi'; } < notes.txt",
  ])("%s", (line) => {
    expect(problems(line)).toEqual([]);
  });
});
