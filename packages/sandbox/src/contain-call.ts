import { commandFields, shellCommands, type ToolArgs, type ToolCall } from "@toolgate/plugin-sdk";
import { containArgv, containLine, type Launcher } from "./contain.js";

/** The arguments that run a shell call's commands inside the sandbox, or why they cannot be contained. */
export function containedArguments(call: ToolCall, launcher: Launcher, bwrapArgs: readonly string[]): { args: ToolArgs } | { problem: string } {
  const patch: ToolArgs = {};
  for (const { field, command } of shellCommands(call)) {
    // Input typed into a running session runs in the sandbox that session was started in.
    if (!commandFields.includes(field)) continue;
    if (command === undefined) return { problem: `its "${field}" is not a command line or an argv of strings, so it cannot be contained` };
    const contained = containField(call.args, field, launcher, bwrapArgs);
    if ("problem" in contained) return contained;
    Object.assign(patch, contained.args);
  }
  return { args: patch };
}

function containField(args: ToolArgs, field: string, launcher: Launcher, bwrapArgs: readonly string[]): { args: ToolArgs } | { problem: string } {
  const value = args[field];
  if (field === "command" && typeof value === "string" && args["args"] !== undefined) {
    const extra = args["args"];
    if (!Array.isArray(extra))
      return { problem: 'its program takes its arguments as one string ("args"), which cannot be contained without reading them as a command line' };
    // The program becomes bwrap, and its arguments bwrap's, then the program and its own.
    if (extra.length > 0) {
      const [program, ...rest] = containArgv([value, ...(extra as string[])], launcher, bwrapArgs);
      return { args: { command: program, args: rest } };
    }
  }
  if (typeof value === "string") return { args: { [field]: containLine(value, launcher, bwrapArgs) } };
  const argv = value as string[];
  return { args: { [field]: argv.length === 1 ? [containLine(argv[0] as string, launcher, bwrapArgs)] : containArgv(argv, launcher, bwrapArgs) } };
}
