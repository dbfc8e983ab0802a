import { Option, type Command } from "commander";
import { exitCodes, type ExitCode } from "../cli-error.js";
import { resolveCwd } from "../open-host.js";
import { printJson } from "../output.js";
import { addProjectOptions, type ProjectOptions } from "../project-options.js";
import { parseAllowedChanges } from "../../replay/allow-changes.js";
import { diffPolicies } from "../../replay/diff-policies.js";
import { printDiff } from "../../replay/print-diff.js";
import { assertSomethingToDecide, readSessions } from "../../replay/read-sessions.js";

const helpText = `
Decides every recorded call of the decisions logs under two policies and prints the calls whose verdict
(allow, modify, ask, block) or decider (the plugin, rule or hook) changed, grouped by change, with counts.

--base and --head each name a policy:
  a path to an existing file   that config file, with the project's plugins folder (unless it sets pluginsDir)
  anything else                a git ref (main, HEAD~1, a tag, a commit): the project folder as committed there,
                               its config and its plugins, copied out with git archive into a temporary
                               folder (the work tree and the index are never touched), packages resolved
                               from the project's node_modules
Without --head, head is the project as it is on disk.

--allow-changes names the changes that may happen (comma-separated, or the option repeated):
  FROM->TO          a verdict change, FROM and TO each allow, modify, ask, block or * (allow->block, *->ask);
                    block->block is a block now given by another plugin or rule
  NAME, KIND:NAME   any change in a call that plugin, rule or hook decides under either policy
                    (budget, rule:Bash(rm:*), command:./guards/no-rm.sh)

Both policies decide as "toolgate replay" does: no tool runs, nothing is recorded, each policy has a store
of its own in memory. Records without arguments and bad lines are counted and named; they are not compared.

Exit codes: 0 no call changed, or only changes --allow-changes names; 1 a change it does not name, or a
policy that cannot decide (a config that does not load, a plugin that fails to load: named with the side
and the file); 2 bad usage or bad input (an unknown ref or file, an unreadable log, no call to compare).`;

interface DiffOptions extends ProjectOptions {
  base: string;
  head?: string;
  allowChanges: string[];
}

export function registerDiffCommand(program: Command): void {
  addProjectOptions(program.command("diff"))
    .description("decide recorded calls under two policies (git refs or config files) and show the calls whose verdict changed")
    .argument("<decisions.jsonl...>", "decisions logs with arguments recorded, or JSONL files of tool calls")
    .requiredOption("--base <ref|config>", "the policy before: a git ref or a config file")
    .option("--head <ref|config>", "the policy after: a git ref or a config file (default: the project on disk)")
    .addOption(
      new Option("--allow-changes <spec>", "changes that do not fail the diff: allow->block, *->ask, a plugin or rule name").argParser(collect).default([]),
    )
    .addHelpText("after", helpText)
    .action(async (files: string[], options: DiffOptions) => {
      process.exitCode = await diff(files, options);
    });
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

async function diff(files: readonly string[], options: DiffOptions): Promise<ExitCode> {
  const cwd = resolveCwd(options.cwd);
  const allowed = parseAllowedChanges(options.allowChanges);
  const sessions = await readSessions(files);
  assertSomethingToDecide(sessions.calls, files, sessions.notReplayed);
  const report = await diffPolicies({ base: options.base, head: options.head, cwd, allowed }, sessions);
  if (options.json) printJson(report);
  else printDiff(report);
  return report.notAllowed === 0 ? exitCodes.ok : exitCodes.failure;
}
