import { describe, expect, it } from "vitest";
import { analyze } from "../invocations.js";
import { runnerNames, runsBeyondItself } from "./index.js";

const environment = { cwd: "/project", home: "/home/ada", tmp: "/tmp" };
const first = (command: string) => analyze(command, environment).invocations[0]!;

describe("runsBeyondItself", () => {
  it.each([
    "sed -n '1e rm -rf ~' f",
    "sed -n -f script.sed f",
    "git grep -O'less' x",
    "git -c core.pager=cat log",
    "tar -tf a.tar --checkpoint-action=exec=true",
    "tar -tf a.tar --frobnicate",
    "find . -exec ls {} +",
    "sh -c 'ls'",
    "echo $(ls)",
    "PAGER=cat man ls",
  ])("%s runs something beyond itself", (command) => {
    expect(runsBeyondItself(first(command))).toBe(true);
  });

  it.each(["sed -n '1,5p' f", "git grep -n foo", "git status", "tar -tf a.tar", "ls -la", "npm test", "find . -name x -print"])(
    "%s runs nothing beyond itself",
    (command) => {
      expect(runsBeyondItself(first(command))).toBe(false);
    },
  );

  it("names the runners it reads", () => {
    for (const name of ["git", "tar", "sed", "awk", "find", "vim", "less", "make", "ssh", "rsync", "tmux", "sqlite3"]) expect(runnerNames.has(name)).toBe(true);
  });
});
