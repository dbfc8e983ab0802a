import { spawn } from "node:child_process";
import type { AgentName, AgentProtocol } from "../agents/agent-protocol.js";
import { parseJsonOrUndefined } from "../agents/hook-input.js";
import { agentNames, agentProtocols } from "../agents/agents.js";
import { readAgentSettings } from "./agent-settings-file.js";
import { CliError } from "./cli-error.js";
import type { AgentDiagnosis } from "./commands/doctor.js";
import { asAgentRuns, findProjectCli, hookCommandFor, hookProgramOf, installCliLine, machineSpecificPathIn } from "./hook-command.js";
import { displayPath } from "./output.js";

const answerTimeoutMs = 30_000;

/**
 * Every agent's hook in `cwd`: installed or not, whether the installed command answers a sample call,
 * whether its CLI starts from the project, and whether it names a path that exists on this machine only.
 */
export function diagnoseAgents(cwd: string): Promise<AgentDiagnosis[]> {
  return Promise.all(agentNames.map((agent) => diagnose(agentProtocols[agent], cwd)));
}

async function diagnose(protocol: AgentProtocol, cwd: string): Promise<AgentDiagnosis> {
  const base = {
    agent: protocol.name,
    file: displayPath(`${cwd}/${protocol.settings.file}`, cwd),
    current: false,
    command: null,
    answers: null,
    answer: null,
    machinePath: null,
    cliStarts: null,
  };
  let document: Record<string, unknown>;
  try {
    document = readAgentSettings(protocol, cwd).document;
  } catch (error) {
    return { ...base, installed: false, problem: error instanceof CliError ? error.message : String(error) };
  }
  const command = protocol.settings.installedCommands(document)[0];
  if (command === undefined) return { ...base, installed: false, problem: null };
  const run = await runAsAgent(protocol.name, command, JSON.stringify(protocol.sampleInput(cwd)), cwd);
  const answerProblem = problemOf(protocol, run);
  // A hook that answers has a CLI that starts; one that does not is asked why, to name the fix.
  const cli = answerProblem === null ? { starts: true, problem: null } : await probeCli(protocol.name, command, cwd);
  const machinePath = machineSpecificPathIn(command, protocol.name) ?? null;
  const problems = [machinePath === null ? null : machinePathProblem(protocol.name, machinePath), cli.problem ?? answerProblem];
  return {
    ...base,
    installed: true,
    current: command === hookCommandFor(protocol.name, protocol.startFailureFallback, findProjectCli(cwd)),
    command,
    answers: answerProblem === null,
    answer: run.stdout.trim() || null,
    machinePath,
    cliStarts: cli.starts,
    problem: problems.filter((problem) => problem !== null).join("; ") || null,
  };
}

function machinePathProblem(agent: AgentName, path: string): string {
  return `the hook command names ${path}, a path on this machine only: in a teammate's or a CI job's checkout the hook does not start and every tool call is denied (run toolgate init ${agent} to write a command that finds toolgate from the project)`;
}

/**
 * Whether the CLI the installed command names starts from the project (`<program> --version`, run as the
 * agent would), and if not, why; `starts` is null for a command of another shape than `<program> hook <agent>`.
 */
async function probeCli(agent: AgentName, command: string, cwd: string): Promise<{ starts: boolean | null; problem: string | null }> {
  const program = hookProgramOf(command, agent);
  if (program === undefined) return { starts: null, problem: null };
  const probe = await runAsAgent(agent, `${program} --version`, "", cwd);
  if (probe.code === 0 && /^\d+\.\d+/.test(probe.stdout.trim())) return { starts: true, problem: null };
  const reason = probe.stderr.trim().split("\n").at(-1) || `exit code ${probe.code}`;
  return {
    starts: false,
    problem: `the toolgate CLI the hook command runs (${program}) does not start from ${cwd}: ${reason}. Install toolgate in the project (${installCliLine(cwd)}), or run toolgate init ${agent} again where it is installed`,
  };
}

/** Why the hook's answer to the sample call is not a decision of the project's plugins, or null. */
function problemOf(protocol: AgentProtocol, run: { code: number | null; stdout: string; stderr: string }): string | null {
  const failure =
    stringsIn(parseJsonOrUndefined(run.stdout)).find((text) => text.startsWith(failurePrefix)) ?? new RegExp(`${failurePrefix}.*`).exec(run.stderr)?.[0];
  if (failure !== undefined) return failure;
  // A plugin that blocks the sample call answers with a deny (exit code 2 where the agent has it): a decision all the same.
  if ((run.code === 0 || run.code === 2) && protocol.isPreAnswer(run.stdout, 0)) return null;
  return `the hook did not answer in ${protocol.name}'s format (exit code ${run.code}; stdout ${JSON.stringify(run.stdout.slice(0, 200))}; stderr ${JSON.stringify(run.stderr.slice(-300))})`;
}

const failurePrefix = "toolgate denied this call because";

function stringsIn(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (typeof value === "object" && value !== null) return Object.values(value).flatMap(stringsIn);
  return [];
}

/** The command run the way `agent` runs it in `cwd`: through the shell, with the agent's variables, `input` on stdin. */
function runAsAgent(agent: AgentName, command: string, input: string, cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const run = asAgentRuns(agent, command, cwd);
  return new Promise((resolve) => {
    const child = spawn("sh", ["-c", run.command], { cwd, env: run.env, timeout: answerTimeoutMs });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", (error) => resolve({ code: null, stdout, stderr: `${stderr}${error.message}` }));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.on("error", () => {});
    child.stdin.end(input);
  });
}
