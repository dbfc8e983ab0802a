import { describe, expect, it } from "vitest";
import { problemsOf as problems } from "./test-helpers.js";

// Builtins whose options run code or make a name run another program, out of the reader's sight (bash 5.2).

describe("a builtin option that runs code or rebinds a name is a problem", () => {
  it.each([
    ["hash -p /bin/rm ls", "hash -p"],
    ["hash -lp /bin/rm ls", "hash -p"],
    ["builtin hash -p /bin/rm ls", "hash -p"],
    ["enable -f ./x.so ls", "enable -f"],
    ["mapfile -C 'echo' -c 1 a <<< x", "mapfile -C"],
    ["mapfile -c1 -Cecho a <<< x", "mapfile -C"],
    ["readarray -C cb a < f", "readarray -C"],
    ["compgen -C 'echo hi' x", "compgen -C"],
    ["compgen -F f x", "compgen -F"],
    ["compgen -W '$(echo hi)' x", "compgen -W"],
    ["compgen -W'`echo hi`' x", "compgen -W"],
  ])("%s", (line, option) => {
    expect(problems(line).some((problem) => problem.startsWith(option))).toBe(true);
  });
});

describe("the same builtins used for data are no problem", () => {
  it.each([
    "hash",
    "hash -r",
    "hash node",
    "hash -d node",
    "enable -n echo",
    "enable -a",
    "mapfile -t lines < notes.txt",
    "mapfile -t -d '' files < <(find . -print0)",
    "readarray -t lines <<< x",
    "compgen -c git",
    "compgen -A function",
    "compgen -W 'start stop' st",
  ])("%s", (line) => {
    expect(problems(line)).toEqual([]);
  });
});
