import { statSync } from "node:fs";
import { resolve } from "node:path";
import { createHost, type Host } from "@toolgate/host";
import { isToolgateError } from "@toolgate/host";
import type { HostLogger } from "@toolgate/host";
import type { HostOptions } from "@toolgate/host";
import { createConsoleLogger } from "@toolgate/host/internal";
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
export async function openHost(options: HostOptions): Promise<Host> {
  try {
    return await createHost(options);
  } catch (error) {
    if (isToolgateError(error)) throw new CliError(error.message, exitCodes.failure);
    throw error;
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
