import { resolve } from "node:path";
import { resolveSettings, withProjectDecisionsLog, type HostSettings } from "@toolgate/host/internal";
import { isToolgateError } from "@toolgate/host";
import { CliError, exitCodes } from "../cli/cli-error.js";

/**
 * The log to read: `--file` (relative to the current folder, as a shell user means it), else the
 * config's `decisions.log` (relative to the config's folder), else `.toolgate/decisions.jsonl` in the
 * project: the file the CLI's surfaces write. An invalid config, or `decisions.log: false`, is an error of the command.
 */
export async function findLogPath(options: { cwd: string; file?: string | undefined }): Promise<string> {
  if (options.file !== undefined) return resolve(options.file);
  let settings: HostSettings;
  try {
    settings = withProjectDecisionsLog(await resolveSettings({ cwd: options.cwd }));
  } catch (error) {
    if (isToolgateError(error)) throw new CliError(error.message, exitCodes.failure);
    throw error;
  }
  const { log } = settings.decisions;
  if (log === false || log === undefined)
    throw new CliError(
      `${settings.configPath ?? "the config"} sets decisions.log to false, so no decisions are recorded: set it to a path, or read another log with --file`,
      exitCodes.failure,
    );
  return log;
}
