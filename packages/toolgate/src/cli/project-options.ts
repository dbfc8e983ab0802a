import type { Command } from "commander";

/** The options every project command takes. */
export interface ProjectOptions {
  cwd?: string;
  json?: boolean;
}

export function addProjectOptions(command: Command): Command {
  return command
    .option("--cwd <dir>", "the project folder (plugins/, toolgate.config.*, node_modules)", undefined)
    .option("--json", "machine-readable output on stdout");
}
