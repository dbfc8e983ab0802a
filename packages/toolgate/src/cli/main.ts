import { Command, CommanderError } from "commander";
import { describeThrown } from "@toolgate/host/internal";
import { CliError, exitCodes, type ExitCode } from "./cli-error.js";
import { registerCheckCommand } from "./commands/check.js";
import { registerHookCommand } from "../hook/run-hook.js";
import { registerListCommand } from "./commands/list.js";
import { registerRunCommand } from "./commands/run.js";
import { printError } from "./output.js";
import { hostVersion } from "./versions.js";

const exitCodesHelp = `
Exit codes:
  0  success (list: the plugins were listed, even failed ones)
  1  a plugin failed to load, the config is invalid, or the command's check failed
  2  bad usage or bad input: unknown command or option, unreadable or malformed file, invalid name

Run "toolgate <command> --help" for a command's options.`;

type Register = (program: Command) => void;

/**
 * The commands, in help order. The process starts once per tool call, so a command's module is
 * imported only when it runs if it has dependencies of its own (magicast, the package manager, the
 * scaffold). The host's commands (list, check, run; hook belongs with them) need nothing the host
 * does not, and imported here they are in the CLI bundle's main file: one file to load instead of a
 * chain of chunks, which costs more than the few kB.
 */
const commandModules: Record<string, () => Promise<Register>> = {
  list: async () => registerListCommand,
  check: async () => registerCheckCommand,
  run: async () => registerRunCommand,
  explain: async () => (await import("./commands/explain.js")).registerExplainCommand,
  test: async () => (await import("./commands/test.js")).registerTestCommand,
  replay: async () => (await import("./commands/replay.js")).registerReplayCommand,
  diff: async () => (await import("./commands/diff.js")).registerDiffCommand,
  cedar: async () => (await import("./commands/cedar.js")).registerCedarCommand,
  new: async () => (await import("./commands/new.js")).registerNewCommand,
  add: async () => (await import("./commands/add.js")).registerAddCommand,
  "mcp-proxy": async () => (await import("./commands/mcp-proxy.js")).registerMcpProxyCommand,
  hook: async () => registerHookCommand,
  init: async () => (await import("./commands/init.js")).registerInitCommand,
  import: async () => (await import("./commands/import.js")).registerImportCommand,
  doctor: async () => (await import("./commands/doctor.js")).registerDoctorCommand,
  serve: async () => (await import("./commands/serve.js")).registerServeCommand,
  decisions: async () => (await import("./commands/decisions.js")).registerDecisionsCommand,
  ui: async () => (await import("./commands/ui.js")).registerUiCommand,
};

/**
 * The commands to register for `argv`: the one named, or all of them when none is (help, `--version`,
 * a typo commander should suggest a fix for). Options come after the command name, so the first word
 * not starting with `-` is it.
 */
async function commandsFor(argv: readonly string[]): Promise<Register[]> {
  const named = argv.slice(2).find((word) => !word.startsWith("-"));
  const load = named !== undefined && Object.hasOwn(commandModules, named) ? [commandModules[named]!] : Object.values(commandModules);
  return Promise.all(load.map((loadModule) => loadModule()));
}

/** The `toolgate` program. Subcommands inherit `exitOverride`, so every exit goes through `main`. */
export function createProgram(commands: readonly Register[]): Command {
  const program = new Command("toolgate")
    .description("toolgate: the tool-call policy host for AI agents")
    .version(hostVersion())
    .exitOverride()
    .showSuggestionAfterError()
    .addHelpText("after", exitCodesHelp);
  for (const register of commands) register(program);
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
// No top-level await: the bundle is CommonJS (see scripts/bundle.mjs).
async function main(argv: string[]): Promise<void> {
  try {
    await createProgram(await commandsFor(argv)).parseAsync(argv);
  } catch (error) {
    process.exitCode = exitCodeOf(error);
  }
}

void main(process.argv);
