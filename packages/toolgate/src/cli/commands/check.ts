import type { Command } from "commander";
import { CliError, exitCodes, type ExitCode } from "../cli-error.js";
import { openHost, resolveCwd } from "../open-host.js";
import { color, count, printJson, printLine } from "../output.js";
import { diagnosePolicy, sampleHostOptions } from "../diagnose-policy.js";
import { createPluginReport, failedPlugins, printPluginReport } from "../plugin-report.js";
import { addProjectOptions, type ProjectOptions } from "../project-options.js";

export function registerCheckCommand(program: Command): void {
  addProjectOptions(program.command("check"))
    .description("load and validate every plugin and the config; fail if anything does not load")
    .addHelpText(
      "after",
      "\nAlso resolves the optional packages the config needs and decides a sample call: a policy that cannot run fails the check.\nWarns when budgets or rate limits count in the memory store.\nExit codes: 0 every plugin loaded and the sample call is decided by the policy, 1 a plugin failed, the config is invalid,\na needed package is missing or a policy cannot run, 2 bad usage.",
    )
    .action(async (options: ProjectOptions) => {
      process.exitCode = await check(options);
    });
}

async function check(options: ProjectOptions): Promise<ExitCode> {
  const cwd = resolveCwd(options.cwd);
  const hookFailures: Parameters<typeof sampleHostOptions>[1] = [];
  const host = await openHost(sampleHostOptions(cwd, hookFailures)).catch((error: unknown) => {
    // A JSON consumer still gets a document saying why, besides the line on stderr.
    if (options.json && error instanceof CliError) printJson({ ok: false, cwd, error: error.message });
    throw error;
  });
  try {
    const report = createPluginReport(host, cwd);
    const failed = failedPlugins(report.plugins).length;
    const { problems, warnings } = await diagnosePolicy(host, cwd, hookFailures);
    const ok = failed === 0 && problems.length === 0;
    if (options.json) printJson({ ok, ...report, problems, warnings });
    else {
      printPluginReport(report);
      for (const problem of problems) printLine(`${color.red("problem:")} ${problem}`);
      for (const warning of warnings) printLine(`${color.yellow("warning:")} ${warning}`);
      printLine(ok ? color.green("check passed") : color.red(`check failed: ${failureSummary(failed, problems.length)}`));
    }
    return ok ? exitCodes.ok : exitCodes.failure;
  } finally {
    await host.close();
  }
}

function failureSummary(failedPluginCount: number, problemCount: number): string {
  const parts = [failedPluginCount > 0 ? `${count(failedPluginCount, "plugin")} did not load` : null, problemCount > 0 ? count(problemCount, "problem") : null];
  return parts.filter((part) => part !== null).join(", ");
}
