import { join, resolve } from "node:path";
import { findConfigFile, isDataFile, loadConfigFile } from "@toolgate/host/internal";
import { isToolgateError } from "@toolgate/host";
import { CliError, exitCodes } from "../cli/cli-error.js";
import { printNote } from "../cli/output.js";

/**
 * The log to read, found without running any of the project's code (the log may be read while an agent
 * works in the project, and a config module is code): `--file` (relative to the current folder, as a
 * shell user means it); else a JSON or YAML config's `decisions.log` (relative to the config's folder),
 * read as data; else `.toolgate/decisions.jsonl` in the project, the file the CLI's surfaces write by
 * default. A config module (`toolgate.config.ts`, `.mjs`, …) is not loaded: its `decisions.log` is not
 * seen, which a note says (pass `--file`). An invalid config, two configs, or `decisions.log: false` is an error of the command.
 */
export async function findLogPath(options: { cwd: string; file?: string | undefined }): Promise<string> {
  if (options.file !== undefined) return resolve(options.file);
  const defaultLog = join(options.cwd, ".toolgate", "decisions.jsonl");
  const configPath = configIn(options.cwd);
  if (configPath === undefined) return defaultLog;
  if (!isDataFile(configPath)) {
    printNote(`[toolgate] ${configPath} is code and is not run to find the log: reading ${defaultLog} (pass --file if decisions.log names another)`);
    return defaultLog;
  }
  const log = await logInDataConfig(configPath);
  if (log === false)
    throw new CliError(
      `${configPath} sets decisions.log to false, so no decisions are recorded: set it to a path, or read another log with --file`,
      exitCodes.failure,
    );
  return log ?? defaultLog;
}

function configIn(cwd: string): string | undefined {
  try {
    return findConfigFile(cwd, undefined);
  } catch (error) {
    if (isToolgateError(error)) throw new CliError(error.message, exitCodes.failure);
    throw error;
  }
}

async function logInDataConfig(configPath: string): Promise<string | false | undefined> {
  try {
    const { config, dir } = await loadConfigFile(configPath);
    const log = config.decisions?.log;
    return typeof log === "string" ? resolve(dir, log) : log;
  } catch (error) {
    if (isToolgateError(error)) throw new CliError(error.message, exitCodes.failure);
    throw error;
  }
}
