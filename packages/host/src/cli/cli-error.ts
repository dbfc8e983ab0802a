/** The CLI's exit codes, documented in `toolgate --help`. */
export const exitCodes = {
  /** Everything ran (for `list`: everything was reported). */
  ok: 0,
  /** A plugin failed to load, the config is invalid, or a command's own check failed. */
  failure: 1,
  /** Bad usage or bad input: unknown command or option, unreadable or malformed file, invalid name. */
  usage: 2,
} as const;

export type ExitCode = (typeof exitCodes)[keyof typeof exitCodes];

/** An error the CLI reports as one line on stderr before exiting with `exitCode`. */
export class CliError extends Error {
  readonly exitCode: ExitCode;

  constructor(message: string, exitCode: ExitCode) {
    super(message);
    this.name = "CliError";
    this.exitCode = exitCode;
  }
}
