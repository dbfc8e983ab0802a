import { describe, expect, it } from "vitest";
import { analyze } from "../invocations.js";
import { readingOf } from "./test-helpers.js";

const environment = { cwd: "/project", home: "/home/ada", tmp: "/tmp" };

function problems(line: string): string[] {
  return analyze(line, environment).problems;
}

// A program the reader has no model of, given an argument that reads as a command, may run it.
describe("an unmodelled program whose arguments read as a command is unknown", () => {
  it.each([
    "valgrind rm -rf ~",
    "valgrind --tool=memcheck rm -rf ~",
    "ccache rm -rf ~",
    "distcc /bin/rm -rf ~",
    "mytool rm -rf ~",
    "mytool --flag 'rm -rf ~'",
    "mytool --exec='rm -rf ~'",
    "mytool -x=rm",
    "mytool 'sudo rm -rf /'",
    "mytool sh -c 'echo'",
    "mytool bash script.sh",
    "mytool /usr/bin/env rm -rf ~",
    "mytool xargs rm",
    "mytool dd if=/dev/zero of=/dev/sda",
    "mytool mkfs.ext4 /dev/sda1",
    "mytool mkfs -t ext4 /dev/sda1",
    "mytool shred -u x",
    "mytool python3 -c 'import os'",
    "mytool node -e 1",
    "mytool perl -e 1",
    "mytool '  rm -rf ~'",
    "mytool 'rm;ls'",
    "mytool \"'rm'\" -rf ~",
    "mytool wipefs -a /dev/sda",
    "mytool truncate -s0 x",
    "mytool tee ~/.bashrc",
    "mytool chmod -R 000 /",
    "mytool sudo ls",
    "mytool nsenter -t 1 ls",
    "mytool bwrap --ro-bind / / ls",
    "mytool proot ls",
    "mytool find / -delete",
    "sudo mytool rm -rf ~",
    "echo x | xargs mytool rm -rf",
    "find . -exec mytool rm -rf {} +",
    "sh -c 'mytool rm -rf ~'",
    "echo $(mytool rm -rf ~)",
    "pdsh-like -w h rm -rf ~",
    "with-env-wrapper-x rm -rf ~",
    "mytool RM -rf ~",
    "mytool /BIN/RM -rf ~",
    "mytool CMD='rm -rf ~'",
    "mytool -c'rm -rf ~'",
    "mytool -crm\\ -rf\\ ~",
    'mytool "r""m" -rf ~',
    "mytool \\rm -rf ~",
    "mytool $'rm' -rf ~",
  ])("%s is unknown", (line) => {
    expect(readingOf(line)).toBe("unknown");
  });

  it("names the program and what it may run", () => {
    expect(problems("valgrind rm -rf ~").join("\n")).toMatch(/valgrind may run `rm` from its arguments, and the reader has no model of valgrind/);
  });
});

// Arguments that read as data leave an unknown program alone; programs known to treat them as data are listed.
describe("data arguments and inert programs stay plain", () => {
  it.each([
    "cargo build",
    "cargo test --release",
    "make test",
    "npm run build",
    "npm install find",
    "pnpm add env-cmd",
    "pip install sh",
    "echo rm",
    "echo rm -rf ~",
    "printf '%s\\n' 'rm -rf ~'",
    "grep -r 'rm -rf' .",
    "rg 'rm -rf' src",
    "git commit -m 'rm -rf cleanup'",
    "man rm",
    "which rm",
    "type rm",
    "whereis dd",
    "apropos rm",
    "tldr rm",
    "gh issue create --title 'rm -rf / happened' --body 'sudo rm'",
    "gh pr view 12",
    "mytool --message 'rm -rf ~'",
    "mytool -m 'rm -rf ~'",
    "mytool --title='sudo rm -rf ~'",
    "prettier --write .",
    "eslint . --fix",
    "tsc -p .",
    "docker run --rm node:20 npm test",
    "kubectl get pods",
    "jq '.rm' x.json",
    "vitest run src/rm.test.ts",
    "mytool ./rm.sh",
    "mytool rmdir",
    "mytool --rm",
    "mytool format",
  ])("%s is not unknown", (line) => {
    expect(readingOf(line)).not.toBe("unknown");
  });
});
