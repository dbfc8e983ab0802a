#!/usr/bin/env node
import { Command, CommanderError } from "commander";
import { describeThrown } from "../errors.js";
import { CliError, exitCodes, type ExitCode } from "./cli-error.js";
import { registerAddCommand } from "./commands/add.js";
import { registerCheckCommand } from "./commands/check.js";
import { registerExplainCommand } from "./commands/explain.js";
import { registerListCommand } from "./commands/list.js";
import { registerMcpProxyCommand } from "./commands/mcp-proxy.js";
import { registerNewCommand } from "./commands/new.js";
import { registerRunCommand } from "./commands/run.js";
import { printError } from "./output.js";
import { hostVersion } from "./versions.js";

const exitCodesHelp = `
Exit codes:
  0  success (list: the plugins were listed, even failed ones)
  1  a plugin failed to load, the config is invalid, or the command's check failed
  2  bad usage or bad input: unknown command or option, unreadable or malformed file, invalid name

Run "toolgate <command> --help" for a command's options.`;

/** The `toolgate` program. Subcommands inherit `exitOverride`, so every exit goes through `main`. */
export function createProgram(): Command {
  const program = new Command("toolgate")
    .description("toolgate: the tool-call policy host for AI agents")
    .version(hostVersion())
    .exitOverride()
    .showSuggestionAfterError()
    .addHelpText("after", exitCodesHelp);
  registerListCommand(program);
  registerCheckCommand(program);
  registerRunCommand(program);
  registerExplainCommand(program);
  registerNewCommand(program);
  registerAddCommand(program);
  registerMcpProxyCommand(program);
  return program;
}

/** Commander has already printed its own errors (and help); everything else is reported here, on one line. */
function exitCodeOf(error: unknown): ExitCode {
  if (error instanceof CommanderError) return error.exitCode === 0 ? exitCodes.ok : exitCodes.usage;
  if (error instanceof CliError) {
    printError(error.message);
    return error.exitCode;
  }
  printError(describeThrown(error));
  return exitCodes.failure;
}

// process.exitCode (not process.exit) so that stdout is flushed to a pipe before the process ends.
try {
  await createProgram().parseAsync(process.argv);
} catch (error) {
  process.exitCode = exitCodeOf(error);
}
