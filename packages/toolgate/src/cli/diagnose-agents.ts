import { spawn } from "node:child_process";
import type { AgentProtocol } from "../agents/agent-protocol.js";
import { parseJsonOrUndefined } from "../agents/hook-input.js";
import { agentNames, agentProtocols } from "../agents/agents.js";
import { readAgentSettings } from "./agent-settings-file.js";
import { CliError } from "./cli-error.js";
import type { AgentDiagnosis } from "./commands/doctor.js";
import { hookCommandFor } from "./hook-command.js";
import { displayPath } from "./output.js";

const answerTimeoutMs = 30_000;

/** Every agent's hook in `cwd`: installed or not, and whether the installed command answers a sample call. */
export function diagnoseAgents(cwd: string): Promise<AgentDiagnosis[]> {
  return Promise.all(agentNames.map((agent) => diagnose(agentProtocols[agent], cwd)));
}

async function diagnose(protocol: AgentProtocol, cwd: string): Promise<AgentDiagnosis> {
  const base = { agent: protocol.name, file: displayPath(`${cwd}/${protocol.settings.file}`, cwd), current: false, command: null, answers: null, answer: null };
  let document: Record<string, unknown>;
  try {
    document = readAgentSettings(protocol, cwd).document;
  } catch (error) {
    return { ...base, installed: false, problem: error instanceof CliError ? error.message : String(error) };
  }
  const command = protocol.settings.installedCommands(document)[0];
  if (command === undefined) return { ...base, installed: false, problem: null };
  const run = await runHookCommand(command, protocol.sampleInput(cwd), cwd);
  const problem = problemOf(protocol, run);
  return {
    ...base,
    installed: true,
    current: command === hookCommandFor(protocol.name, protocol.startFailureFallback),
    command,
    answers: problem === null,
    answer: run.stdout.trim() || null,
    problem,
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

/** The installed command, run the way the agent runs it: through the shell, the input on stdin. */
function runHookCommand(command: string, input: unknown, cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn("sh", ["-c", command], { cwd, timeout: answerTimeoutMs });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", (error) => resolve({ code: null, stdout, stderr: `${stderr}${error.message}` }));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.on("error", () => {});
    child.stdin.end(JSON.stringify(input));
  });
}
