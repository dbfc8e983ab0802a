import { Argument, type Command } from "commander";
import { agentNames, type AgentName } from "../../agents/agent-protocol.js";
import { addProjectOptions, type ProjectOptions } from "../project-options.js";

export function registerInitCommand(program: Command): void {
  addProjectOptions(program.command("init"))
    .description("install toolgate as a coding agent's tool hook in this project (merged into the agent's settings)")
    .addArgument(new Argument("<agent>", "the agent to set up").choices(agentNames))
    .addHelpText(
      "after",
      "\nWrites .claude/settings.json, .gemini/settings.json, .codex/hooks.json or .github/hooks/toolgate.json.\nThe hook runs the project's own node_modules/.bin/toolgate, found from the project folder the agent names\n(no path of this machine), so the file can be committed. Other settings are kept; running it again\nreplaces toolgate's entry instead of adding a second one.",
    )
    .action(async (agent: AgentName, options: ProjectOptions) => {
      await init(agent, options);
    });
}

async function init(agent: AgentName, options: ProjectOptions): Promise<void> {
  const [{ agentProtocols }, { readAgentSettings, writeAgentSettings }, hookCommand, { resolveCwd }, output] = await Promise.all([
    import("../../agents/agents.js"),
    import("../agent-settings-file.js"),
    import("../hook-command.js"),
    import("../open-host.js"),
    import("../output.js"),
  ]);
  const cwd = resolveCwd(options.cwd);
  const protocol = agentProtocols[agent];
  const cli = hookCommand.findProjectCli(cwd);
  const command = hookCommand.hookCommandFor(agent, protocol.startFailureFallback, cli);
  const settings = readAgentSettings(protocol, cwd);
  const next = protocol.settings.install(settings.document, command);
  const changed = JSON.stringify(next) !== JSON.stringify(settings.document);
  if (changed) writeAgentSettings(settings.path, next);
  if (!cli.found)
    output.printWarning(
      `toolgate is not installed in this project (no ${cli.path} in ${cwd} or a folder above it): until it is, the hook denies every tool call. Install it with: ${hookCommand.installCliLine(cwd)}`,
    );
  const file = output.displayPath(settings.path, cwd);
  if (options.json) return output.printJson({ agent, file: settings.path, command, changed, cli });
  output.printLine(changed ? `installed the toolgate hook for ${agent} in ${file}` : `the toolgate hook for ${agent} is already installed in ${file}`);
  output.printLine(output.color.dim(`  ${protocol.events.pre} and ${protocol.events.post} run: ${command}`));
  output.printLine(output.color.dim("  check it with: toolgate doctor"));
}
