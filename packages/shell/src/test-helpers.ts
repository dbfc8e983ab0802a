import { analyze, type Invocation } from "./invocations.js";

/** The folders every reader test reads its lines in. */
export const testEnvironment = { cwd: "/project", home: "/home/ada", tmp: "/tmp" };

/** The problems the reader finds on a line. */
export function problemsOf(line: string): string[] {
  return analyze(line, testEnvironment).problems;
}

/** Every command the line runs, nested ones included, by name. */
export function commandNames(line: string): string[] {
  return analyze(line, testEnvironment).invocations.flatMap(function all(invocation: Invocation): string[] {
    return [invocation.name, ...invocation.nested.flatMap(all)];
  });
}

/** The last argument of every `rm` the line runs, nested ones included. */
export function rmTargets(line: string): string[] {
  const found: string[] = [];
  const visit = (invocation: Invocation): void => {
    if (invocation.name === "rm") found.push(invocation.args.at(-1) ?? "");
    for (const child of invocation.nested) visit(child);
  };
  for (const invocation of analyze(line, testEnvironment).invocations) visit(invocation);
  return found;
}
