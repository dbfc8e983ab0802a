import { describe, expect, it } from "vitest";
import { interpreterEffects } from "./interpreters.js";
import { analyze } from "./invocations.js";
import { analysisEnvironment, sharedAnalysis } from "./shared-analysis.js";
import { sharedInterpreterEffects } from "./shared-effects.js";
import { stdinTexts } from "./static-text.js";

const environment = analysisEnvironment({ projectRoot: "/work/project", home: "/home/ada", tmp: "/tmp" });
const line = `python3 -c "open('/etc/hosts', 'w').write('x')"; node -e "require('fs').writeFileSync('a.txt', 'y')"; echo "while True: os.fork()" | python3`;
const fresh = (invocation: Parameters<typeof interpreterEffects>[0]) => interpreterEffects(invocation, () => stdinTexts(invocation));

describe("sharedInterpreterEffects: one reading of a one-liner for every consumer of a shared reading", () => {
  it("answers as interpreterEffects does, for each command of the line", () => {
    const { invocations } = sharedAnalysis(line, environment);
    expect(invocations.map((each) => sharedInterpreterEffects(each))).toEqual(invocations.map(fresh));
    expect(invocations.map((each) => sharedInterpreterEffects(each)?.writes.map((write) => write.target))).toEqual([["/etc/hosts"], ["a.txt"], undefined, []]);
    expect(sharedInterpreterEffects(invocations.at(-1)!)?.forkBomb).toBe(true);
  });

  it("hands every consumer the same answer, frozen", () => {
    const [python] = sharedAnalysis(line, environment).invocations;
    const first = sharedInterpreterEffects(python!)!;
    expect(sharedInterpreterEffects(python!)).toBe(first);
    expect(() => first.writes.push({ target: "/safe", call: "" })).toThrow(TypeError);
    expect(() => ((first.writes[0] as { target: string }).target = "/safe")).toThrow(TypeError);
    expect(() => ((first as { forkBomb: boolean }).forkBomb = true)).toThrow(TypeError);
    expect(sharedInterpreterEffects(python!)?.writes[0]?.target).toBe("/etc/hosts");
  });

  it("reads a command that is no shared reading's afresh each time (it may still change)", () => {
    const [python] = analyze(line, environment).invocations;
    expect(Object.isFrozen(python)).toBe(false);
    const first = sharedInterpreterEffects(python!);
    expect(sharedInterpreterEffects(python!)).not.toBe(first);
    python!.args = ["-c", "open('/etc/passwd', 'a')"];
    expect(sharedInterpreterEffects(python!)?.writes.map((write) => write.target)).toEqual(["/etc/passwd"]);
  });
});
