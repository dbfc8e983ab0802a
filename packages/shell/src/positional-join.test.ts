import { describe, expect, it } from "vitest";
import { analyze } from "./invocations.js";
import { isUnknown } from "./unknown.js";

// `"$*"` joins the positional parameters with the first character of IFS (bash 5.2: `set -- r m; IFS=; "$*"` runs rm).
const environment = { cwd: "/project", home: "/home/ada", tmp: "/tmp" };
const firstArgv = (line: string, name: string) => {
  const found = analyze(line, environment).invocations.find((invocation) => invocation.name === name || isUnknown(invocation.name));
  return found === undefined ? undefined : [found.name, ...found.args];
};

describe('"$*" after the line sets IFS', () => {
  it.each([
    ['set -- r m; IFS=; "$*" -rf ~', "rm"],
    ['set -- r m; IFS=; c="$*"; $c -rf ~', "rm"],
    ['f() { IFS=; "$*" -rf ~; }; f r m', "rm"],
    ['set -- a b; IFS=,; echo "$*"', "echo"],
    ['set -- a b; IFS=/; echo "${*}"', "echo"],
  ])("%s is not read as joined with a space", (line, name) => {
    const argv = firstArgv(line, name);
    expect(argv?.some((word) => word === "r m" || word === "a b")).toBe(false);
    expect(argv?.some(isUnknown)).toBe(true);
  });

  it.each([
    ['set -- a b; echo "$*"', ["echo", "a b"]],
    ['set -- a b; IFS=" "; echo "$*"', ["echo", "a b"]],
    ['set -- a b; IFS=,; echo "$@"', ["echo", "a b"]],
  ])("%s joins with a space", (line, argv) => {
    expect(firstArgv(line, "echo")).toEqual(argv);
  });
});
