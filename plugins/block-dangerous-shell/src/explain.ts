import type { CheckResult, Guard } from "./check.js";
import type { PackName } from "./rules/rule.js";

/** What `toolgate explain` prints for this plugin: how the command was read, and why it was decided. */
export type ShellExplanation =
  | { checked: false; reason: string }
  | {
      checked: true;
      command: string;
      /** Where relative paths resolve: the shell's starting folder. */
      cwd: string;
      projectRoot: string;
      packs: readonly PackName[];
      /** Why the command could not be read with confidence (empty when it could). */
      problems: readonly string[];
      /** The command line and every script nested in it. */
      scripts: readonly string[];
      /** Every command it would run, after unwrapping `sudo`, `env`, `sh -c`, `$(…)`, one-liners, function calls, … (then those of functions never called, `via` saying so). */
      commands: readonly { command: string; via: readonly string[]; wrappers: readonly string[]; cwd: string | null; input?: string }[];
      /** Every recursive delete and where it lands. */
      deletes: readonly { command: string; target: string; path: string | null; kind: string; force: boolean }[];
      verdict: { action: "block"; rule: string; message: string } | { action: "allow"; rulesChecked: number };
    };

export function explainCheck(command: string, result: CheckResult, guard: Guard, packs: readonly PackName[]): ShellExplanation {
  const { analysis, deletes, violation } = result;
  return {
    checked: true,
    command,
    cwd: analysis.invocations[0]?.cwd ?? guard.context.projectRoot,
    projectRoot: guard.context.projectRoot,
    packs,
    problems: analysis.problems,
    scripts: analysis.scripts,
    commands: [...analysis.invocations, ...analysis.uncalled]
      .filter((invocation) => invocation.name !== "")
      .map((invocation) => ({
        command: invocation.text,
        via: invocation.via,
        wrappers: invocation.wrappers,
        cwd: invocation.cwd ?? null,
        ...(invocation.input === undefined ? {} : { input: invocation.input }),
      })),
    deletes: deletes.map(({ invocation, target, force }) => ({
      command: invocation.text,
      target: target.raw,
      path: target.path ?? null,
      kind: target.kind,
      force,
    })),
    verdict: violation ? { action: "block", ...violation } : { action: "allow", rulesChecked: guard.rules.length },
  };
}
