import { analyze } from "../invocations.js";

const environment = { cwd: "/project", home: "/home/ada", tmp: "/tmp" };

/** What a line is read as: `"unknown"` when it has a problem or runs a command named at run time, else the nested commands runners hand on (`rm -rf ~`), else `"plain"`. */
export function readingOf(command: string): string {
  const analysis = analyze(command, environment);
  if (analysis.problems.length > 0 || analysis.unresolved.length > 0) return "unknown";
  const nested = analysis.invocations.filter((invocation) => invocation.via.length > 0 && invocation.name !== "");
  return nested.length === 0 ? "plain" : nested.map((invocation) => [invocation.name, ...invocation.args].join(" ")).join(" ; ");
}

/** Whether the line hands on a nested command that starts with `nested` (`rm -rf ~`), read with no problem. */
export function runs(command: string, nested: string): boolean {
  return readingOf(command)
    .split(" ; ")
    .some((text) => text.startsWith(nested));
}
