import type { ToolCall, Verdict } from "@toolgate/plugin-sdk";
import { Option, type Command } from "commander";
import type { Host } from "@toolgate/host";
import { toolMessageFormats, toToolMessage, type ToolMessageFormat } from "@toolgate/host";
import { exitCodes, type ExitCode } from "../cli-error.js";
import { openHost, resolveCwd, stderrLogger } from "../open-host.js";
import { escapeControl } from "@toolgate/host/internal";
import { color, count, printError, printJsonLine, printLine, safeJson } from "../output.js";
import { failedPlugins } from "../plugin-report.js";
import { addProjectOptions, type ProjectOptions } from "../project-options.js";
import { readCalls } from "../read-calls.js";
import { agentOption, withToolKind } from "../agent-kind.js";

interface RunOptions extends ProjectOptions {
  format: ToolMessageFormat;
  agent?: string;
}

/** One replayed call: what `--json` prints per line. */
interface RunOutcome {
  call: ToolCall;
  verdict: Verdict;
  /** The message the model would receive, for a blocked call. */
  message?: unknown;
}

const helpText = `
Each line of <calls.jsonl> is one tool call: {"id": "call_1", "name": "terminal", "args": {...}, "kind"?: "shell"}.
Blank lines are skipped; every line is checked before any call is gated. A call without "kind" gets the
kind the agents' hooks give its tool (Bash is shell, as "toolgate hook" reads it; --agent reads the names
as that agent's hook does).

This is a dry run: every call passes through each plugin's pre_tool_call, and the decision is printed,
but no tool is executed. A blocked call prints the tool message the model would receive. Plugins see
the store the config names (budgets and rate limits as they stand), and what they write during the run
stays in this process: a dry run uses up no budget.

Exit codes: 0 every call was processed, 1 a plugin failed to load or the config is invalid,
2 bad usage or bad input (unreadable file, a line that is not JSON or not a valid call).`;

export function registerRunCommand(program: Command): void {
  addProjectOptions(program.command("run"))
    .description("replay the tool calls of a JSONL file through the gate and print each decision (dry run: no tool runs)")
    .argument("<calls.jsonl>", "a file with one tool call per line")
    .addOption(new Option("--format <format>", "tool message format for blocked calls").choices(toolMessageFormats).default("openai"))
    .addOption(agentOption())
    .addHelpText("after", helpText)
    .action(async (file: string, options: RunOptions) => {
      process.exitCode = await run(file, options);
    });
}

async function run(file: string, options: RunOptions): Promise<ExitCode> {
  const cwd = resolveCwd(options.cwd);
  const calls = (await readCalls(file)).map((call) => withToolKind(call, options.agent));
  // A dry run reads the real budgets and rate limits, and uses none of them up.
  const host = await openHost({ cwd, logger: stderrLogger, storeWrites: "local" }, "run");
  try {
    const outcomes: RunOutcome[] = [];
    for (const call of calls) {
      const outcome = await replay(host, call, options.format);
      outcomes.push(outcome);
      if (options.json) printJsonLine(outcome);
      else printOutcome(outcome, options.format);
    }
    if (!options.json) printLine(summarize(outcomes));
    return reportLoadFailures(host);
  } finally {
    await host.close();
  }
}

async function replay(host: Host, call: ToolCall, format: ToolMessageFormat): Promise<RunOutcome> {
  const verdict = await host.checkToolCall(call);
  if (verdict.action !== "block") return { call, verdict };
  // The host remembers the verdict: pre_tool_call does not fire again and the tool does not run.
  const result = await host.callTool(call, { skipPreToolCallHook: true });
  return { call, verdict, message: toToolMessage(result, format) };
}

// Ids, names and messages come from the calls file and from plugins: escaped, or JSON made terminal-safe.
function printOutcome({ call, verdict, message }: RunOutcome, format: ToolMessageFormat): void {
  printLine(`${color.bold(escapeControl(call.id))}  ${escapeControl(call.name)}  ${color.dim(safeJson(call.args))}`);
  const by = describeDecider(verdict);
  if (verdict.action === "block") {
    printLine(`  ${color.red("BLOCK")}${by}: ${escapeControl(verdict.message ?? "blocked")}`);
    printLine(`  ${color.dim(`${format} message:`)} ${safeJson(message)}`);
  } else if (verdict.action === "ask") {
    printLine(`  ${color.yellow("ASK")}${by}: ${escapeControl(verdict.message ?? "approval needed")}`);
  } else {
    const modified = JSON.stringify(verdict.args) !== JSON.stringify(call.args);
    printLine(`  ${color.green("ALLOW")}${by}${verdict.message === undefined ? "" : `: ${escapeControl(verdict.message)}`}`);
    printLine(`  ${color.dim(modified ? "args (modified):" : "args:")} ${safeJson(verdict.args)}`);
  }
  printLine();
}

/** ` by rate-limit`, ` by rule bash:command=*sudo*`, ` by command ./guards/no-rm.sh`; empty when nobody decided. */
function describeDecider(verdict: Verdict): string {
  const { source } = verdict;
  if (source !== undefined && source.kind !== "plugin") return ` by ${source.kind} ${color.bold(escapeControl(source.name))}`;
  return verdict.plugin === undefined ? "" : ` by ${color.bold(escapeControl(verdict.plugin))}`;
}

function summarize(outcomes: readonly RunOutcome[]): string {
  const tally = (action: Verdict["action"]) => outcomes.filter((outcome) => outcome.verdict.action === action).length;
  const counts = `${tally("block")} blocked, ${tally("allow")} allowed, ${tally("ask")} ask`;
  return `${count(outcomes.length, "call")}: ${counts} ${color.dim("(dry run: no tool was executed)")}`;
}

function reportLoadFailures(host: Host): ExitCode {
  const failed = failedPlugins(host.plugins);
  if (failed.length === 0) return exitCodes.ok;
  // Under onPluginError "block" (the default) the gate blocked every call above for it; under "allow" the plugins that loaded decided.
  printError(`${count(failed.length, "plugin")} failed to load (${failed.map((record) => record.name).join(", ")})`);
  return exitCodes.failure;
}
