import { describe, expect, it } from "vitest";
import { letters, names, readArguments, type Grammar } from "./options.js";

const grammar: Grammar = {
  program: "demo",
  abbreviate: true,
  short: { ...letters("abc", "fo"), O: { arity: "optional" } },
  long: names("recursive recurse-submodules verbose no-preserve-root", "checkpoint-action file", "color"),
};

describe("readArguments", () => {
  it.each([
    [["-abc"], ["-a", "-b", "-c"]],
    [
      ["-af", "x"],
      ["-a", "-f=x"],
    ],
    [["-afx"], ["-a", "-f=x"]],
    [["-O"], ["-O"]],
    [["-Ocmd"], ["-O=cmd"]],
    [["--verbose"], ["--verbose"]],
    [["--verb"], ["--verbose"]],
    [["--checkpoint-act=exec=x"], ["--checkpoint-action=exec=x"]],
    [["--checkpoint-a", "exec=x"], ["--checkpoint-action=exec=x"]],
    [["--no-pres"], ["--no-preserve-root"]],
    [["--col"], ["--color"]],
    [["--color=always"], ["--color=always"]],
    [["--fi", "a"], ["--file=a"]],
  ])("%j reads as %j", (args, expected) => {
    const read = readArguments(args, grammar);
    expect(read.problems).toEqual([]);
    expect(read.options.map((option) => (option.value === undefined ? option.name : `${option.name}=${option.value}`))).toEqual(expected);
  });

  it.each([
    [["-z"], "-z"],
    [["-az"], "-z (in -az)"],
    [["--nope"], "--nope"],
    [["--rec"], "ambiguous"],
    [["--verbose=1"], "takes no value"],
    [["-f"], "needs a value"],
    [["--file"], "needs a value"],
  ])("%j is a problem naming %s", (args, text) => {
    expect(readArguments(args, grammar).problems.join("\n")).toContain(text);
  });

  it("reads options after operands unless told to stop, and nothing after --", () => {
    expect(readArguments(["x", "-a", "--", "-b"], grammar).operands).toEqual(["x", "-b"]);
    const posix = readArguments(["-a", "cmd", "-b"], { ...grammar, stopAtOperand: true });
    expect(posix.end).toBe(1);
    expect(posix.options.map((option) => option.name)).toEqual(["-a"]);
  });

  it("does not abbreviate for programs that do not", () => {
    expect(readArguments(["--verb"], { ...grammar, abbreviate: false }).problems).toHaveLength(1);
  });

  it("reads single-dash long options (getopt_long_only) before letters", () => {
    const only: Grammar = { program: "gdb", abbreviate: true, singleDashLong: "only", short: letters("q", "x"), long: names("batch", "ex") };
    const read = readArguments(["-batch", "-ex", "bt", "-q", "-bat"], only);
    expect(read.problems).toEqual([]);
    expect(read.options.map((option) => option.name)).toEqual(["--batch", "--ex", "-q", "--batch"]);
  });
});
