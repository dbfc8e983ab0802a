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

const cliErrorMarker = Symbol.for("toolgate.cli-error");

/**
 * An error the CLI reports as one line on stderr before exiting with `exitCode`. `instanceof` goes by
 * a global symbol: the bundled `new` and `add` commands carry their own copy of this class.
 */
export class CliError extends Error {
  readonly exitCode: ExitCode;
  readonly [cliErrorMarker] = true;

  constructor(message: string, exitCode: ExitCode) {
    super(message);
    this.name = "CliError";
    this.exitCode = exitCode;
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === "object" && value !== null && (value as { [cliErrorMarker]?: unknown })[cliErrorMarker] === true;
  }
}
