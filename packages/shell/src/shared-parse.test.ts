import { describe, expect, it } from "vitest";
import { analyze } from "./invocations.js";
import { parseScript } from "./parse.js";
import { sharedParse } from "./shared-parse.js";
import { simpleCommands } from "./simple-commands.js";
import { unknownText } from "./unknown.js";

const environment = { cwd: "/work/project", home: "/home/ada", tmp: "/tmp", projectRoot: "/work/project" };

// The guard's reader (`analyze`) and the permission rules' (`simpleCommands`) as each one sees the line.
const guardReads = (line: string) => analyze(line, environment).invocations.map((each) => [each.name, ...each.args].join(" "));
const rulesRead = (line: string) => simpleCommands(line).commands;

describe("sharedParse: one parse of each script of a line for all its readers", () => {
  it("hands every reader of a line the same parse of each of its scripts", () => {
    const line = 'git status; echo "$(git rev-parse HEAD)"';
    expect(sharedParse(line, line)).toBe(sharedParse(line, line));
    expect(sharedParse(line, "git rev-parse HEAD")).toBe(sharedParse(line, "git rev-parse HEAD"));
    expect(sharedParse(line, line)).toEqual(parseScript(line));
  });

  it("never shares a script's parse between two lines (two decisions)", () => {
    expect(sharedParse("echo 1; echo $(ls)", "ls")).not.toBe(sharedParse("echo 2; echo $(ls)", "ls"));
  });

  // The alias's value is also a script of the line (`$(rm -rf /tmp/a)`): the guard splices `~` into the
  // alias's commands, and a reader handed that spliced tree for the substitution would read `rm -rf /tmp/a ~`.
  const line = `alias x='rm -rf /tmp/a'; x ~; echo "$(rm -rf /tmp/a)"`;
  // `echo`'s word is the substitution's output: only known at run time.
  const guardAnswer = ["alias x=rm -rf /tmp/a", "rm -rf /tmp/a ~", `echo ${unknownText}`, "rm -rf /tmp/a"];
  const rulesAnswer = ["alias x=rm -rf /tmp/a", "x ~", "echo $(rm -rf /tmp/a)", "rm -rf /tmp/a"];

  it.each([
    ["the guard first", [guardReads, rulesRead, guardReads, rulesRead]],
    ["the rules first", [rulesRead, guardReads, rulesRead, guardReads]],
  ])("a line that defines an alias: each reader gets its own right answer, %s", (_, readers) => {
    for (const read of readers) expect(read(line)).toEqual(read === guardReads ? guardAnswer : rulesAnswer);
  });

  it("a line that uses an alias twice: the second use reads the alias as written, not as the first use left it", () => {
    const twice = "alias x='rm -rf /tmp/a'; x b; x c";
    expect(guardReads(twice)).toEqual(["alias x=rm -rf /tmp/a", "rm -rf /tmp/a b", "rm -rf /tmp/a c"]);
    expect(guardReads(twice)).toEqual(["alias x=rm -rf /tmp/a", "rm -rf /tmp/a b", "rm -rf /tmp/a c"]);
  });

  it("a hostile line's scripts do not grow the store without end", () => {
    // More scripts than a line's store keeps (1,024): the ones past it are parsed for each reader, and read alike.
    const many = Array.from({ length: 2_000 }, (_, index) => `echo "$(echo ${index})"`).join("; ");
    expect(rulesRead(many)).toHaveLength(4_000);
    expect(rulesRead(many).at(-1)).toBe("echo 1999");
    expect(guardReads(many)).toHaveLength(4_000);
    expect(guardReads(many).at(-1)).toBe("echo 1999");
  });
});
