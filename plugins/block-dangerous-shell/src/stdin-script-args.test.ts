import { describe, expect, it } from "vitest";
import { checkCommand } from "./check.js";
import { resolveOptions } from "./options.js";

// `python3 - arg… <<< code`: the script named `-` is standard input, the words after it its arguments.
// Read as a script file named by a word, its code was not read at all (issue #25).
const guard = resolveOptions({}, { projectRoot: "/home/dev/project", home: "/home/dev" }).guard;
const refused = (command: string) => checkCommand(command, guard).violation !== undefined;

describe("an interpreter reading its script from input, given arguments, is read", () => {
  it.each([
    `python3 - 'rm -rf ~' <<< "import os,sys; os.system(sys.argv[1])"`,
    `python3 - x <<< "import shutil; shutil.rmtree('/home/dev')"`,
    `perl - x <<< 'system "rm -rf ~"'`,
    `node - x <<< "require('child_process').execSync('rm -rf ~')"`,
  ])("%s", (command) => {
    expect(refused(command)).toBe(true);
  });
});

describe("scripts on input that only read stay allowed", () => {
  it.each([`python3 - data.csv <<< 'import sys; print(open(sys.argv[1]).read())'`, "python3 script.py -", "python3 - <<< 'print(1)'"])("%s", (command) => {
    expect(refused(command)).toBe(false);
  });
});
