import { describe, expect, it } from "vitest";
import { analyze } from "./invocations.js";

// A path through a symbolic link the line made opens what the link points to (GNU rm 9.1: `rm -rf x/`
// with `x` → a folder empties that folder; `rm -rf x/*` globs inside it).
const environment = { cwd: "/project", home: "/home/ada", tmp: "/tmp" };
const argsOf = (line: string, name: string) =>
  analyze(line, environment)
    .invocations.filter((invocation) => invocation.name === name)
    .map((invocation) => invocation.args.join(" "));

describe("a path through a link the line made is the path it points to", () => {
  it.each([
    ["ln -s ~ x; rm -rf x/", "-rf /home/ada/"],
    ["ln -s ~ x; rm -rf x/*", "-rf /home/ada/*"],
    ["ln -s ~ x; rm -rf ./x/.config", "-rf /home/ada/.config"],
    ["ln -sfn / x; rm -rf x/*", "-rf /*"],
    ["ln --symbolic ~ /tmp/x; rm -rf /tmp/x/", "-rf /home/ada/"],
    ["ln -s .. up; rm -rf up/", "-rf /"],
    ["ln -s ../.. up; rm -rf up/*", "-rf /*"],
    ["ln -s -t /tmp ~; rm -rf /tmp/ada/", "-rf /home/ada/"],
    ["ln -s ~ /tmp; rm -rf /tmp/ada/", "-rf /home/ada/"],
    ["ln -s /etc e; rm -rf e/x/..", "-rf /etc"],
  ])("%s", (line, args) => {
    expect(argsOf(line, "rm")).toContain(args);
  });

  it("cd into a link enters what it points to", () => {
    const rm = analyze("ln -s ~ x; cd x; rm -rf *", environment).invocations.find((invocation) => invocation.name === "rm");
    expect(rm?.cwd).toBe("/home/ada");
  });

  it("a link to a target only known at run time makes the path unknown", () => {
    expect(argsOf('ln -s "$T" x; rm -rf x/', "rm")[0]).not.toContain("x/");
  });
});

describe("the link itself, and paths the line did not link, stay as written", () => {
  it.each([
    ["ln -s ~ x; rm x", "x"],
    ["ln -s ~ x; rm -rf x", "-rf x"],
    ["ln -s ~ x; rm -rf xy/", "-rf xy/"],
    ["ln ~/a b; rm -rf b/", "-rf b/"],
    ["rm -rf build/", "-rf build/"],
  ])("%s", (line, args) => {
    expect(argsOf(line, "rm")).toEqual([args]);
  });
});
