import type { Command } from "commander";
import { CliError, exitCodes, type ExitCode } from "../cli-error.js";
import { openHost, resolveCwd } from "../open-host.js";
import { color, count, printJson, printLine } from "../output.js";
import { createPluginReport, failedPlugins, printPluginReport } from "../plugin-report.js";
import { addProjectOptions, type ProjectOptions } from "../project-options.js";

export function registerCheckCommand(program: Command): void {
  addProjectOptions(program.command("check"))
    .description("load and validate every plugin and the config; fail if anything does not load")
    .addHelpText("after", "\nExit codes: 0 every plugin loaded, 1 a plugin failed or the config is invalid, 2 bad usage.")
    .action(async (options: ProjectOptions) => {
      process.exitCode = await check(options);
    });
}

async function check(options: ProjectOptions): Promise<ExitCode> {
  const cwd = resolveCwd(options.cwd);
  const host = await openHost({ cwd, logger: false }).catch((error: unknown) => {
    // A JSON consumer still gets a document saying why, besides the line on stderr.
    if (options.json && error instanceof CliError) printJson({ ok: false, cwd, error: error.message });
    throw error;
  });
  try {
    const report = createPluginReport(host, cwd);
    const failed = failedPlugins(report.plugins).length;
    if (options.json) printJson({ ok: failed === 0, ...report });
    else {
      printPluginReport(report);
      printLine(failed === 0 ? color.green("check passed") : color.red(`check failed: ${count(failed, "plugin")} did not load`));
    }
    return failed === 0 ? exitCodes.ok : exitCodes.failure;
  } finally {
    await host.close();
  }
}
