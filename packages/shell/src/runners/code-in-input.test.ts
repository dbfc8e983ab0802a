import { describe, expect, it } from "vitest";
import { analyze } from "../invocations.js";
import { knownInputs } from "../static-text.js";
import { commandNames, problemsOf as problems, testEnvironment as environment } from "../test-helpers.js";

// A program with no model may run a command it finds in a string of its code or on a line of its input.
describe("an unmodelled program given a command in a string or its input is unknown", () => {
  it.each([
    "lua -e 'os.execute(\"rm -rf ~\")'",
    "tclsh <<< 'exec rm -rf ~'",
    "Rscript -e 'system(\"rm -rf ~\")'",
    "mytool --code \"run('sh -c ls')\"",
    "ed <<< '!rm -rf ~'",
    "printf '!rm -rf ~\\n' | ed -s f",
    "ftp host <<< '!rm -rf ~'",
    "mytool <<EOF\nls\nrm -rf ~\nEOF",
  ])("%s", (line) => {
    expect(problems(line).some((problem) => problem.includes("no model"))).toBe(true);
  });
  it.each(["lua -e 'print(1)'", "Rscript -e 'summary(x)'", "sqlite3 db <<< 'select 1;'", "mytool --name 'release notes'", "ed -s f <<< ',p'"])(
    "%s stays plain",
    (line) => {
      expect(problems(line)).toEqual([]);
    },
  );
});

// Modelled programs read their input as their own language: sftp's `!cmd` and gdb's `shell cmd` run locally.
describe("sftp and gdb read the commands on their input", () => {
  it.each([
    ["sftp host <<< '!rm -rf ~'", "rm"],
    ["gdb -q ./a.out <<< 'shell rm -rf ~'", "rm"],
  ])("%s runs %s", (line, name) => {
    const names = commandNames(line);
    expect(names).toContain(name);
  });
  it("a gdb command it has not read is a problem", () => {
    expect(problems("gdb -q ./a.out <<< 'python import os'").length).toBeGreaterThan(0);
  });
});

describe("a NUL ends an item xargs reads", () => {
  it.each([
    ["printf '%s\\0' /home/ada /tmp | xargs -0 rm -rf", ["/home/ada", "/tmp"]],
    ["printf 'a b\\0c' | xargs -0 rm -rf", ["a", "b", "c"]],
    ["printf '%s\\0' one | xargs -0 -I{} rm -rf {}", ["one"]],
  ])("%s", (line, items) => {
    const rm = analyze(line, environment).invocations.find((invocation) => invocation.name === "rm");
    expect(rm === undefined ? undefined : knownInputs(rm)).toEqual(items);
  });
});
