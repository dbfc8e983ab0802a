import type { Command } from "commander";
import type { AgentName } from "../../agents/agent-protocol.js";
import { addProjectOptions, type ProjectOptions } from "../project-options.js";

export interface AgentDiagnosis {
  agent: AgentName;
  file: string;
  installed: boolean;
  /** The installed command is the one `toolgate init` would write now. */
  current: boolean;
  command: string | null;
  /** The installed hook answered a sample tool call in the agent's format. */
  answers: boolean | null;
  answer: string | null;
  /** A path in the command that exists on this machine only (absolute, or under the home folder): a problem. */
  machinePath: string | null;
  /** The CLI the command runs starts from the project folder (false: not installed where the command looks). */
  cliStarts: boolean | null;
  /** Every problem found, joined by "; ". */
  problem: string | null;
}

export function registerDoctorCommand(program: Command): void {
  addProjectOptions(program.command("doctor"))
    .description("does this project's policy load (and guard anything), and for each coding agent: is the toolgate hook installed, and does it answer")
    .addHelpText(
      "after",
      "\nDecides a sample call and resolves the optional packages the config needs: a policy that cannot run (a missing package,\na hook that fails) is a problem. Warns when the project has no plugins and no permission rules (every call is allowed), and\nwhen budgets or rate limits count in the memory store.\nExit codes: 0 the policy loads and every installed hook answers, 1 a plugin or the config does not load, or an installed hook\ndoes not answer, its CLI does not start from the project, its command names a path of this machine, or its settings are unreadable.",
    )
    .action(async (options: ProjectOptions) => {
      process.exitCode = await doctor(options);
    });
}

/** The project's own policy, whatever agent runs it: a problem fails the doctor, a warning does not. */
interface ProjectDiagnosis {
  /** Loaded plugins, configured hooks and the permission rules, as `toolgate list` counts them. */
  policies: number;
  /** A config that does not load, or plugins that failed (every call is then denied). */
  problem: string | null;
  /** Nothing guards the calls: no plugins and no rules. */
  warning: string | null;
  /** Whether `@toolgate/sandbox`, when the project uses it, can start a sandbox on this machine. */
  sandbox: SandboxDiagnosis;
}

type SandboxDiagnosis = { used: false } | { used: true; works: true } | { used: true; works: false; problem: string; advice: string };

async function doctor(options: ProjectOptions): Promise<number> {
  const [{ diagnoseAgents }, { resolveCwd }, output] = await Promise.all([import("../diagnose-agents.js"), import("../open-host.js"), import("../output.js")]);
  const cwd = resolveCwd(options.cwd);
  const [project, diagnoses] = await Promise.all([diagnoseProject(cwd), diagnoseAgents(cwd)]);
  const healthy = project.problem === null && diagnoses.every((diagnosis) => diagnosis.problem === null);
  if (options.json) output.printJson({ ok: healthy, cwd, project, agents: diagnoses });
  else {
    output.printLine(describeProject(project, output));
    for (const diagnosis of diagnoses) output.printLine(describe(diagnosis, output));
  }
  return healthy ? 0 : 1;
}

async function diagnoseProject(cwd: string): Promise<ProjectDiagnosis> {
  const [{ createHost }, { describeThrown }, { diagnosePolicy, sampleHostOptions }] = await Promise.all([
    import("@toolgate/host"),
    import("@toolgate/host/internal"),
    import("../diagnose-policy.js"),
  ]);
  const hookFailures: Parameters<typeof sampleHostOptions>[1] = [];
  let host: Awaited<ReturnType<typeof createHost>>;
  try {
    host = await createHost(sampleHostOptions(cwd, hookFailures));
  } catch (error) {
    return { policies: 0, problem: `the toolgate config does not load: ${describeThrown(error)}`, warning: null, sandbox: { used: false } };
  }
  try {
    const failed = host.plugins.filter((record) => record.status === "failed");
    const policies = host.plugins.length - failed.length;
    const sandbox = await diagnoseSandbox(host.plugins, cwd);
    const problems = failed.map((record) => `plugin "${record.name}" failed to load: ${record.error ?? "unknown error"}`);
    const failedProblem = problems.length === 0 ? null : `${problems.join("; ")} (every call is denied until it loads, unless onPluginError is "allow")`;
    const sandboxProblem = sandbox.used && !sandbox.works ? `no sandbox can start on this machine: ${sandbox.problem}; ${sandbox.advice}` : null;
    const policy = await diagnosePolicy(host, cwd, hookFailures);
    const problem = [failedProblem, sandboxProblem, ...policy.problems].filter((text) => text !== null).join("; ") || null;
    const noPolicy =
      host.plugins.length === 0
        ? "no plugins and no permission rules: every tool call is allowed (add a plugin to plugins/ or rules to toolgate.config)"
        : null;
    const warning = [noPolicy, ...policy.warnings].filter((text) => text !== null).join("; ") || null;
    return { policies, problem, warning, sandbox };
  } finally {
    await host.close();
  }
}

/** The sandbox's own probe, when a loaded plugin is `@toolgate/sandbox`'s (named "sandbox"). */
async function diagnoseSandbox(plugins: readonly { name: string; status: string }[], cwd: string): Promise<SandboxDiagnosis> {
  if (!plugins.some((record) => record.name === "sandbox" && record.status === "loaded")) return { used: false };
  const { importOptional, sandboxPackage } = await import("@toolgate/host/internal");
  const { sandboxStatus } = await importOptional(sandboxPackage, cwd, () => import("@toolgate/sandbox"));
  const status = sandboxStatus();
  return status.available ? { used: true, works: true } : { used: true, works: false, problem: status.problem, advice: status.advice };
}

function describeProject(project: ProjectDiagnosis, output: typeof import("../output.js")): string {
  const { color } = output;
  const name = "project".padEnd(12);
  if (project.problem !== null) return `${name}${color.red(project.problem)}`;
  if (project.warning !== null && project.policies === 0) return `${name}${color.yellow(`warning: ${project.warning}`)}`;
  const loaded = `${name}${color.green(`${project.policies} ${project.policies === 1 ? "policy" : "policies"} loaded (plugins, configured hooks, permission rules)`)}`;
  const warned = project.warning === null ? loaded : `${loaded}\n${" ".repeat(12)}${color.yellow(`warning: ${project.warning}`)}`;
  return project.sandbox.used ? `${warned}\n${"sandbox".padEnd(12)}${color.green("works: shell calls run inside bubblewrap")}` : warned;
}

function describe(diagnosis: AgentDiagnosis, output: typeof import("../output.js")): string {
  const { color } = output;
  const name = diagnosis.agent.padEnd(12);
  if (!diagnosis.installed)
    return `${name}${color.dim("not installed")}${diagnosis.problem ? `  ${color.red(diagnosis.problem)}` : color.dim(`  (toolgate init ${diagnosis.agent})`)}`;
  const state = diagnosis.answers ? color.green("installed, answers") : color.red("installed, does not answer");
  const stale =
    diagnosis.current || diagnosis.machinePath !== null
      ? ""
      : color.yellow(`  (not the command toolgate init writes now; toolgate init ${diagnosis.agent} updates it)`);
  const problem = diagnosis.problem ? `\n            ${color.red(diagnosis.problem)}` : "";
  return `${name}${state}  ${diagnosis.file}${stale}${problem}`;
}
