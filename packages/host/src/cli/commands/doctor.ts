import type { Command } from "commander";
import type { AgentName } from "../../agents/agent-protocol.js";
import { addProjectOptions, type ProjectOptions } from "../project-options.js";

export interface AgentDiagnosis {
  agent: AgentName;
  file: string;
  installed: boolean;
  /** The installed command is the one `toolgate init` would write now (same CLI, same place). */
  current: boolean;
  command: string | null;
  /** The installed hook answered a sample tool call in the agent's format. */
  answers: boolean | null;
  answer: string | null;
  problem: string | null;
}

export function registerDoctorCommand(program: Command): void {
  addProjectOptions(program.command("doctor"))
    .description("for each coding agent: is the toolgate hook installed in this project, and does it answer")
    .addHelpText("after", "\nExit codes: 0 every installed hook answers, 1 an installed hook does not answer or its settings are unreadable.")
    .action(async (options: ProjectOptions) => {
      process.exitCode = await doctor(options);
    });
}

async function doctor(options: ProjectOptions): Promise<number> {
  const [{ diagnoseAgents }, { resolveCwd }, output] = await Promise.all([import("../diagnose-agents.js"), import("../open-host.js"), import("../output.js")]);
  const cwd = resolveCwd(options.cwd);
  const diagnoses = await diagnoseAgents(cwd);
  const healthy = diagnoses.every((diagnosis) => diagnosis.problem === null);
  if (options.json) output.printJson({ ok: healthy, cwd, agents: diagnoses });
  else for (const diagnosis of diagnoses) output.printLine(describe(diagnosis, output));
  return healthy ? 0 : 1;
}

function describe(diagnosis: AgentDiagnosis, output: typeof import("../output.js")): string {
  const { color } = output;
  const name = diagnosis.agent.padEnd(12);
  if (!diagnosis.installed)
    return `${name}${color.dim("not installed")}${diagnosis.problem ? `  ${color.red(diagnosis.problem)}` : color.dim(`  (toolgate init ${diagnosis.agent})`)}`;
  const state = diagnosis.answers ? color.green("installed, answers") : color.red("installed, does not answer");
  const stale = diagnosis.current ? "" : color.yellow("  (another toolgate CLI than this one; run toolgate init again to point at this one)");
  const problem = diagnosis.problem ? `\n            ${color.red(diagnosis.problem)}` : "";
  return `${name}${state}  ${diagnosis.file}${stale}${problem}`;
}
