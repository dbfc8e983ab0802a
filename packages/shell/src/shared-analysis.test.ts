import { readFileSync } from "node:fs";
import { describe, expect, it, vi } from "vitest";
import { analyze, type Analysis } from "./invocations.js";
import { analysisEnvironment, readerVersion, sharedAnalysis } from "./shared-analysis.js";
import type { AnalysisEnvironment } from "./shell-state.js";

// Each field of the environment shows in the reading: `git status` runs in `cwd`, `ls` in `home`, `rm`'s
// operand holds `tmp`, and it runs in `projectRoot` (what `git rev-parse --show-toplevel` prints).
const line = 'git status; cd "$(git rev-parse --show-toplevel)" && rm -rf "$TMPDIR/b"; cd ~ && ls';
const base = { cwd: "/work/project/src", home: "/home/ada", tmp: "/tmp", projectRoot: "/work/project" };

const fingerprint = (analysis: Analysis) =>
  JSON.stringify([analysis.source, analysis.problems, analysis.invocations.map((each) => [each.text, each.cwd, each.args])]);

describe("sharedAnalysis: one reading per text and environment", () => {
  it("hands the consumers of one decision the same reading", () => {
    const first = sharedAnalysis(line, analysisEnvironment(base));
    expect(sharedAnalysis(line, analysisEnvironment(base))).toBe(first);
    expect(sharedAnalysis(line, { ...base })).toBe(first);
    expect(fingerprint(first)).toBe(fingerprint(analyze(line, base)));
  });

  const variations: [string, { [K in keyof AnalysisEnvironment]?: AnalysisEnvironment[K] | undefined }][] = [
    ["cwd", { cwd: "/work/project/test" }],
    ["cwd, a trailing slash", { cwd: "/work/project/src/" }],
    ["home", { home: "/home/bob" }],
    ["home, the root", { home: "/" }],
    ["tmp", { tmp: "/var/tmp" }],
    ["tmp, a sub-folder", { tmp: "/tmp/x" }],
    ["projectRoot", { projectRoot: "/work/other" }],
    ["projectRoot, absent", { projectRoot: undefined }],
  ];
  it.each(variations)("never answers for another %s", (_, change) => {
    const other = { ...base, ...change } as AnalysisEnvironment;
    if (other.projectRoot === undefined) delete other.projectRoot;
    // Precondition: the field changes the reading, so an answer for the wrong one would show.
    expect(fingerprint(analyze(line, other))).not.toBe(fingerprint(analyze(line, base)));
    for (const order of [
      [base, other],
      [other, base],
    ]) {
      for (const environment of order) sharedAnalysis(line, environment);
      for (const environment of [...order, ...order.reverse()])
        expect(fingerprint(sharedAnalysis(line, environment))).toBe(fingerprint(analyze(line, environment)));
    }
  });

  it.each([
    ["a trailing space", `${line} `],
    ["one letter changed", line.replace("status", "statuS")],
    ["a different command", line.replace("rm -rf", "rm -r")],
    ["a line break for a space", line.replace("; cd ~", ";\ncd ~")],
    ["a prefix of it", line.slice(0, -1)],
  ])("never answers for another text: %s", (_, text) => {
    const environment = analysisEnvironment(base);
    const original = sharedAnalysis(line, environment);
    const other = sharedAnalysis(text, environment);
    expect(other).not.toBe(original);
    expect(other.source).toBe(text);
    expect(fingerprint(other)).toBe(fingerprint(analyze(text, environment)));
    expect(sharedAnalysis(line, environment).source).toBe(line);
  });

  it("keeps only the last few readings", () => {
    const environment = analysisEnvironment(base);
    const first = sharedAnalysis("echo first-of-many", environment);
    for (let index = 0; index < 10; index++) sharedAnalysis(`echo ${index}`, environment);
    const again = sharedAnalysis("echo first-of-many", environment);
    expect(again).not.toBe(first);
    expect(fingerprint(again)).toBe(fingerprint(first));
  });

  it("a caller changing its environment afterwards does not change the key", () => {
    const environment = { ...base };
    const first = sharedAnalysis(line, environment);
    environment.cwd = "/elsewhere";
    const after = sharedAnalysis(line, environment);
    expect(after).not.toBe(first);
    expect(fingerprint(after)).toBe(fingerprint(analyze(line, environment)));
  });
});

describe("a shared reading cannot be changed by one consumer for another", () => {
  const mutations: [string, (analysis: Analysis) => void][] = [
    ["push an invocation", (analysis) => analysis.invocations.push(analysis.invocations[0]!)],
    ["drop the invocations", (analysis) => (analysis.invocations.length = 0)],
    ["replace the invocations", (analysis) => (analysis.invocations = [])],
    ["add a problem", (analysis) => analysis.problems.push("x")],
    ["clear the unresolved", (analysis) => analysis.unresolved.splice(0)],
    ["rename a command", (analysis) => (analysis.invocations.find((each) => each.name === "rm")!.name = "true")],
    ["change an argument", (analysis) => (analysis.invocations.find((each) => each.name === "rm")!.args[1] = "/safe")],
    ["sort the arguments", (analysis) => analysis.invocations.find((each) => each.name === "rm")!.args.sort()],
    ["change the text", (analysis) => (analysis.invocations.find((each) => each.name === "rm")!.text = "true")],
    ["change the folder", (analysis) => ((analysis.invocations.find((each) => each.name === "rm")! as { cwd: string }).cwd = "/")],
    ["add nested commands", (analysis) => analysis.invocations[0]!.nested.push(analysis.invocations[0]!)],
    ["change a redirect", (analysis) => analysis.invocations[0]!.redirects.push({} as never)],
    ["change the source", (analysis) => ((analysis as { source: string }).source = "true")],
  ];
  it.each(mutations)("%s: throws, and the next consumer reads the line as it is", (_, mutate) => {
    const environment = analysisEnvironment(base);
    const expected = fingerprint(analyze(line, environment));
    expect(() => mutate(sharedAnalysis(line, environment))).toThrow(TypeError);
    expect(fingerprint(sharedAnalysis(line, environment))).toBe(expected);
    expect(sharedAnalysis(line, environment).invocations.find((each) => each.name === "rm")!.text).toBe("rm -rf /tmp/b");
  });
});

describe("analysisEnvironment: one environment for the guard, the rules and the protection", () => {
  const place = { projectRoot: "/work/project", home: "/home/ada", tmp: "/tmp" };
  it.each([
    [undefined, "/work/project"],
    ["", "/work/project"],
    ["src", "/work/project/src"],
    ["./src/../test", "/work/project/test"],
    ["..", "/work"],
    ["/srv/app", "/srv/app"],
    ["/srv//app/./x/..", "/srv/app"],
  ])("the call's folder %j starts at %s", (cwd, expected) => {
    expect(analysisEnvironment({ ...place, cwd }).cwd).toBe(expected);
  });

  it("keeps the project root, the home and the temp folder (without a trailing slash), frozen", () => {
    const environment = analysisEnvironment({ ...place, tmp: "/var/tmp/" });
    expect(environment).toEqual({ cwd: "/work/project", home: "/home/ada", tmp: "/var/tmp", projectRoot: "/work/project" });
    expect(Object.isFrozen(environment)).toBe(true);
    expect(analysisEnvironment({ ...place, tmp: "/" }).tmp).toBe("/");
  });
});

describe("copies of the reader", () => {
  it("share readings only with their own version", () => {
    const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };
    expect(readerVersion).toBe(manifest.version);
  });

  it("a second copy of the module (as the host loads a plugin's) finds the first copy's reading", async () => {
    const environment = analysisEnvironment(base);
    const reading = sharedAnalysis(`${line} # copies`, environment);
    vi.resetModules();
    const copy = await import("./shared-analysis.js");
    expect(copy.sharedAnalysis).not.toBe(sharedAnalysis);
    expect(copy.sharedAnalysis(`${line} # copies`, environment)).toBe(reading);
  });
});
