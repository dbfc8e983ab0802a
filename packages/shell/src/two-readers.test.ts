import { describe, expect, it } from "vitest";
import { analysisEnvironment, sharedAnalysis } from "./shared-analysis.js";
import { simpleCommands } from "./simple-commands.js";
import { unknownText } from "./unknown.js";

const environment = analysisEnvironment({ projectRoot: "/work/project", home: "/home/ada", tmp: "/tmp" });

// The guard's reader (the shared reading) and the permission rules' syntactic one, as each sees the line.
const guardReads = (line: string) => sharedAnalysis(line, environment).invocations.map((each) => [each.name, ...each.args].join(" "));
const rulesRead = (line: string) => simpleCommands(line).commands;

describe("two readers of one line that defines an alias", () => {
  // The alias's value is also a script of the line (`$(rm -rf /tmp/a)`): the guard splices `~` into the
  // alias's commands, and a reader handed that spliced tree for the substitution would read `rm -rf /tmp/a ~`.
  const line = `alias x='rm -rf /tmp/a'; x ~; echo "$(rm -rf /tmp/a)"`;
  // `echo`'s word is the substitution's output: only known at run time.
  const guardAnswer = ["alias x=rm -rf /tmp/a", "rm -rf /tmp/a ~", `echo ${unknownText}`, "rm -rf /tmp/a"];
  const rulesAnswer = ["alias x=rm -rf /tmp/a", "x ~", "echo $(rm -rf /tmp/a)", "rm -rf /tmp/a"];

  it.each([
    ["the guard first", [guardReads, rulesRead, guardReads, rulesRead]],
    ["the rules first", [rulesRead, guardReads, rulesRead, guardReads]],
  ])("each reader gets its own right answer, %s", (_, readers) => {
    for (const read of readers) expect(read(line)).toEqual(read === guardReads ? guardAnswer : rulesAnswer);
  });

  it("the second use of an alias reads it as written, not as the first use left it", () => {
    const twice = "alias x='rm -rf /tmp/a'; x b; x c";
    expect(guardReads(twice)).toEqual(["alias x=rm -rf /tmp/a", "rm -rf /tmp/a b", "rm -rf /tmp/a c"]);
    expect(rulesRead(twice)).toEqual(["alias x=rm -rf /tmp/a", "x b", "x c"]);
    expect(guardReads(twice)).toEqual(["alias x=rm -rf /tmp/a", "rm -rf /tmp/a b", "rm -rf /tmp/a c"]);
  });
});
