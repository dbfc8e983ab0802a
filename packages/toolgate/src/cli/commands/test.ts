import type { Command } from "commander";
import { CliError, exitCodes, type ExitCode } from "../cli-error.js";
import { resolveCwd } from "../open-host.js";
import { displayPath, printError, printJson } from "../output.js";
import { addProjectOptions, type ProjectOptions } from "../project-options.js";
import { fixtureFileNames, fixtureFilesOf, fixtureFolderName } from "../../policy-test/fixture-files.js";
import { printReport } from "../../policy-test/print-report.js";
import { readFixtureFile, type LocatedCase } from "../../policy-test/read-fixtures.js";
import { runFixtureFile, type CaseResult } from "../../policy-test/run-fixtures.js";

const helpText = `
Fixture files (YAML or JSON) list tool calls and the verdict the project's policy must give:

  cases:
    - name: force push is blocked
      agent: claude-code          # optional: the call as this agent's hook sends it (Bash is a shell call)
      tool: Bash
      args: { command: "git push --force" }
      expect: block               # allow | block | ask | modify (an allow with rewritten arguments)
      by: block-dangerous-shell   # optional: the deciding plugin, rule or hook (name, or kind:name)
      message: /force-with-lease/ # optional: text the message contains, or /regex/flags

With no files given, reads ${fixtureFileNames.join(", ")} and ${fixtureFolderName}/*.{yaml,yml,json} in the project.
Every case goes through the project's policy as "toolgate explain" sends it: no tool runs, no budget or
rate limit is used up (store writes stay in this process), and no decision is recorded. The cases of one
file run in order, so a later case sees what earlier ones reserved, as in a session.

Exit codes: 0 every case passed, 1 a case failed or a plugin failed to load, 2 bad usage or a broken
fixture file (each problem named with its file, line and case).`;

export function registerTestCommand(program: Command): void {
  addProjectOptions(program.command("test"))
    .description("check the project's policy against fixture files of calls and expected verdicts (no tool runs)")
    .argument("[files...]", "fixture files or folders of them (default: the project's own)")
    .addHelpText("after", helpText)
    .action(async (files: string[], options: ProjectOptions) => {
      process.exitCode = await testPolicy(files, options);
    });
}

async function testPolicy(paths: readonly string[], options: ProjectOptions): Promise<ExitCode> {
  const cwd = resolveCwd(options.cwd);
  const files = await readAll(cwd, fixtureFilesOf(cwd, paths));
  const results: CaseResult[] = [];
  const failedPlugins: { plugin: string; error: string }[] = [];
  for (const cases of files) {
    const run = await runFixtureFile(cwd, cases);
    results.push(...run.results);
    for (const failure of run.failedPlugins) if (!failedPlugins.some((known) => known.plugin === failure.plugin)) failedPlugins.push(failure);
  }
  const passed = results.filter((result) => result.pass).length;
  if (options.json) printJson({ passed, failed: results.length - passed, cases: results, failedPlugins });
  else printReport(results, failedPlugins);
  return passed === results.length && failedPlugins.length === 0 ? exitCodes.ok : exitCodes.failure;
}

/** Every file read and checked before any case runs: one broken file means nothing runs, and every problem is named. */
async function readAll(cwd: string, files: readonly string[]): Promise<LocatedCase[][]> {
  if (files.length === 0)
    throw new CliError(
      `no fixture files in ${cwd}: write ${fixtureFileNames[0]} (or files in ${fixtureFolderName}/), or name the files to run`,
      exitCodes.usage,
    );
  const reads = await Promise.all(files.map((file) => readFixtureFile(file, displayPath(file, cwd))));
  const problems = reads.flatMap((read) => (read.ok ? [] : read.problems));
  if (problems.length === 0) return reads.map((read) => (read.ok ? read.cases : []));
  for (const problem of problems.slice(0, -1)) printError(problem);
  throw new CliError(problems.at(-1)!, exitCodes.usage);
}
