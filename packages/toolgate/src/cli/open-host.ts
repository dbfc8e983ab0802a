import { statSync } from "node:fs";
import { resolve } from "node:path";
import { createHost, type Host } from "@toolgate/host";
import { isToolgateError } from "@toolgate/host";
import type { HostLogger } from "@toolgate/host";
import type { HostOptions } from "@toolgate/host";
import { createConsoleLogger, createHostWithSettings, resolveSettings, withProjectDecisionsLog } from "@toolgate/host/internal";
import { CliError, exitCodes } from "./cli-error.js";

/** Host warnings and plugin logs go to stderr, escaped, so stdout holds only the command's output. */
export const stderrLogger: HostLogger = createConsoleLogger();

/** The `--cwd` option as an absolute folder; a missing folder is a usage error. */
export function resolveCwd(option: string | undefined): string {
  const cwd = resolve(option ?? process.cwd());
  if (!isDirectory(cwd)) throw new CliError(`--cwd ${cwd} is not a directory`, exitCodes.usage);
  return cwd;
}

/** `createHost`, with an invalid config or invalid options reported as one line and exit code 1. */
export async function openHost(options: HostOptions, recordAs?: string): Promise<Host> {
  try {
    return await (recordAs === undefined ? createHost(options) : createRecordingHost(options, recordAs));
  } catch (error) {
    if (isToolgateError(error)) throw new CliError(error.message, exitCodes.failure);
    throw error;
  }
}

/**
 * `createHost` for the CLI's surfaces that decide calls (`serve`, `mcp-proxy`, `run`): their records
 * name `surface` and go to `.toolgate/decisions.jsonl` in the project unless the config says otherwise.
 * Rejects as `createHost` does.
 */
export async function createRecordingHost(options: HostOptions, surface: string): Promise<Host> {
  const withSurface = { ...options, surface };
  return createHostWithSettings(withProjectDecisionsLog(await resolveSettings(withSurface)), withSurface);
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
