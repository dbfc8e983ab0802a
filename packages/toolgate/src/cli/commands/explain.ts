import type { ToolCall } from "@toolgate/plugin-sdk";
import type { Command } from "commander";
import { describeThrown } from "@toolgate/host/internal";
import { assertValidCall } from "@toolgate/host/internal";
import type { PluginExplanation, ToolCallExplanation } from "@toolgate/host";
import { CliError, exitCodes, type ExitCode } from "../cli-error.js";
import { openHost, resolveCwd, stderrLogger } from "../open-host.js";
import { color, printJson, printLine } from "../output.js";
import { failedPlugins } from "../plugin-report.js";
import { addProjectOptions, type ProjectOptions } from "../project-options.js";
import { agentOption, withToolKind } from "../agent-kind.js";

interface ExplainOptions extends ProjectOptions {
  kind?: string;
  agent?: string;
  id: string;
}

const helpText = `
Examples:
  toolgate explain Bash '{"command": "rm -rf /"}'
  toolgate explain terminal '{"command": "git push --force"}' --kind shell --json
  toolgate explain run_shell_command '{"command": "cat .env"}' --agent gemini-cli

The tool's kind is --kind when given, else the kind the agents' hooks give its name (Bash, Read and
run_shell_command are shell, read and shell, as "toolgate hook" reads them; --agent reads the name as that
agent's hook does; any other name is a function).

Loads the project's plugins as "toolgate run" does, runs each plugin's pre_tool_call for this one call,
and prints what each answered (none, block, allow, ask, modify, error, invalid) with its reason, the
final verdict, and the details plugins offer through their optional explain(call) (block-dangerous-shell
prints its parse: the commands it found and where each delete lands). No tool runs.

Exit codes: 0 the call was explained (whatever the verdict), 1 a plugin failed to load or the config is
invalid, 2 bad usage or bad input (args that are not a JSON object).`;

export function registerExplainCommand(program: Command): void {
  addProjectOptions(program.command("explain"))
    .description("show how each plugin decides one tool call, and why (no tool runs)")
    .argument("<tool>", "the tool's name, as the model calls it (Bash, terminal, read_file, …)")
    .argument("[args]", "the call's arguments as a JSON object", "{}")
    .option("--kind <kind>", "the tool's kind (shell, mcp, function, …); default: the kind the agents' hooks give its name")
    .addOption(agentOption())
    .option("--id <id>", "the call id", "call_explain")
    .addHelpText("after", helpText)
    .action(async (tool: string, args: string, options: ExplainOptions) => {
      process.exitCode = await explain(tool, args, options);
    });
}

async function explain(tool: string, argsText: string, options: ExplainOptions): Promise<ExitCode> {
  const call = parseCall(tool, argsText, options);
  const cwd = resolveCwd(options.cwd);
  // An explanation spends nothing: store writes (rate-limit slots, budget reservations) stay in this process.
  const host = await openHost({ cwd, logger: stderrLogger, storeWrites: "local" });
  try {
    const explanation = await host.explainToolCall(call);
    const failed = failedPlugins(host.plugins).map((record) => ({ plugin: record.name, error: record.error ?? "failed to load" }));
    if (options.json) printJson({ ...explanation, failedPlugins: failed });
    else printExplanation(explanation, failed);
    return failed.length === 0 ? exitCodes.ok : exitCodes.failure;
  } finally {
    await host.close();
  }
}

function parseCall(tool: string, argsText: string, options: ExplainOptions): ToolCall {
  let args: unknown;
  try {
    args = JSON.parse(argsText);
  } catch (error) {
    throw new CliError(`<args> is not valid JSON: ${describeThrown(error)} (give an object, e.g. '{"command": "ls"}')`, exitCodes.usage);
  }
  const call = { id: options.id, name: tool, args, ...(options.kind === undefined ? {} : { kind: options.kind }) };
  try {
    assertValidCall(call, "the call");
  } catch (error) {
    throw new CliError(`${describeThrown(error)} (<args> must be a JSON object, e.g. '{"command": "ls"}')`, exitCodes.usage);
  }
  return withToolKind(call, options.agent);
}

const outcomeLabels: Record<PluginExplanation["outcome"], (text: string) => string> = {
  none: (text) => color.dim(text),
  block: (text) => color.red(text),
  ask: (text) => color.yellow(text),
  allow: (text) => color.green(text),
  modify: (text) => color.cyan(text),
  error: (text) => color.red(text),
  invalid: (text) => color.yellow(text),
};

function printExplanation({ call, plugins, verdict }: ToolCallExplanation, failed: readonly { plugin: string; error: string }[]): void {
  printLine(`${color.bold(call.name)}${call.kind === undefined ? "" : color.dim(` (kind ${call.kind})`)}  ${color.dim(JSON.stringify(call.args))}`);
  printLine();
  if (plugins.length === 0) printLine(color.dim("no plugins loaded"));
  for (const plugin of plugins) {
    const label = outcomeLabels[plugin.outcome](plugin.outcome.toUpperCase().padEnd(7));
    const detail = plugin.message ?? (plugin.args === undefined ? "" : `args ${JSON.stringify(plugin.args)}`);
    // A shadow participant's answer is shown, marked: it took no part in the verdict below.
    const shadow = plugin.shadow === true ? color.dim(" (shadow, not enforced)") : "";
    printLine(`  ${label} ${color.bold(plugin.plugin)}${shadow}${detail === "" ? "" : `: ${detail}`}`);
    if (plugin.details !== undefined) printDetails(plugin.details);
  }
  for (const { plugin, error } of failed) printLine(`  ${color.red("FAILED ")} ${color.bold(plugin)}: ${error}`);
  printLine();
  const by = verdict.plugin === undefined ? "" : ` by ${verdict.plugin}`;
  const verdictLabel = verdict.action === "block" ? color.red("BLOCK") : verdict.action === "ask" ? color.yellow("ASK") : color.green("ALLOW");
  printLine(`verdict: ${verdictLabel}${by}${verdict.message === undefined ? "" : `: ${verdict.message}`}`);
}

/** A plugin's details: the shell guard's parse gets a readable layout, anything else its JSON. */
function printDetails(details: unknown): void {
  if (isShellExplanation(details)) return printShellDetails(details);
  for (const line of JSON.stringify(details, null, 2).split("\n")) printLine(`      ${color.dim(line)}`);
}

interface ShellDetails {
  checked: boolean;
  reason?: string;
  cwd?: string;
  problems?: string[];
  commands?: { command: string; via: string[]; wrappers: string[] }[];
  deletes?: { command: string; target: string; path: string | null; kind: string }[];
  verdict?: { action: string; rule?: string };
}

function isShellExplanation(details: unknown): details is ShellDetails {
  return typeof details === "object" && details !== null && "checked" in details && typeof (details as ShellDetails).checked === "boolean";
}

function printShellDetails(details: ShellDetails): void {
  if (!details.checked) return printLine(`      ${color.dim(`not checked: ${details.reason ?? ""}`)}`);
  printLine(`      ${color.dim("runs in:")} ${details.cwd}`);
  for (const problem of details.problems ?? []) printLine(`      ${color.yellow("cannot parse:")} ${problem}`);
  printLine(`      ${color.dim("commands:")}`);
  for (const command of details.commands ?? []) {
    const via = command.via.length === 0 ? "" : color.dim(`  (via ${command.via.join(" → ")})`);
    const wrappers = command.wrappers.length === 0 ? "" : color.dim(`  [under ${command.wrappers.join(", ")}]`);
    printLine(`        ${command.command}${via}${wrappers}`);
  }
  for (const remove of details.deletes ?? []) printLine(`      ${color.dim("deletes:")} ${remove.target} → ${remove.path ?? "?"} (${remove.kind})`);
  if (details.verdict?.rule !== undefined) printLine(`      ${color.dim("rule:")} ${details.verdict.rule}`);
}
