import type { Command } from "commander";
import { exitCodes, type ExitCode } from "../cli-error.js";
import { openHost, resolveCwd } from "../open-host.js";
import { printJson } from "../output.js";
import { createPluginReport, printPluginReport } from "../plugin-report.js";
import { addProjectOptions, type ProjectOptions } from "../project-options.js";

export function registerListCommand(program: Command): void {
  addProjectOptions(program.command("list"))
    .description("list every plugin found, loaded or failed, with its source, path, errors and warnings")
    .addHelpText("after", "\nExit codes: 0 listed (also when plugins failed: list only reports), 1 invalid config, 2 bad usage.")
    .action(async (options: ProjectOptions) => {
      process.exitCode = await list(options);
    });
}

async function list(options: ProjectOptions): Promise<ExitCode> {
  const cwd = resolveCwd(options.cwd);
  // The report shows every error and warning itself; the host's own log lines would repeat them.
  const host = await openHost({ cwd, logger: false });
  try {
    const report = createPluginReport(host, cwd);
    if (options.json) printJson(report);
    else printPluginReport(report);
    return exitCodes.ok;
  } finally {
    await host.close();
  }
}
