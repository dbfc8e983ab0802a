import { Argument, type Command } from "commander";
import { agentNames, type AgentName } from "../../agents/agent-protocol.js";
import { addProjectOptions, type ProjectOptions } from "../project-options.js";

interface InitOptions extends ProjectOptions {
  bare?: boolean;
}

export function registerInitCommand(program: Command): void {
  addProjectOptions(program.command("init"))
    .description("install toolgate as a coding agent's tool hook in this project (merged into the agent's settings)")
    .addArgument(new Argument("<agent>", "the agent to set up").choices(agentNames))
    .option("--bare", "install the hook only: no starter policy, even in a project without one")
    .addHelpText(
      "after",
      "\nWrites .claude/settings.json, .gemini/settings.json, .codex/hooks.json or .github/hooks/toolgate.json.\nThe hook runs the project's own node_modules/.bin/toolgate, found from the project folder the agent names\n(no path of this machine), so the file can be committed. Other settings are kept; running it again\nreplaces toolgate's entry instead of adding a second one.\nIn a project with no policy (no toolgate.config.*, nothing in plugins/), it also writes toolgate.config.json:\nthe block-dangerous-shell guard (toolgate-plugin-block-dangerous-shell) and store \"file\", so that budgets\nand rate limits hold across hook processes; --bare skips it. It prints a one-line self-test to try.",
    )
    .action(async (agent: AgentName, options: InitOptions) => {
      await init(agent, options);
    });
}

async function init(agent: AgentName, options: InitOptions): Promise<void> {
  const [{ agentProtocols }, { readAgentSettings, writeAgentSettings }, hookCommand, { resolveCwd }, output, starter] = await Promise.all([
    import("../../agents/agents.js"),
    import("../agent-settings-file.js"),
    import("../hook-command.js"),
    import("../open-host.js"),
    import("../output.js"),
    import("../starter-policy.js"),
  ]);
  const cwd = resolveCwd(options.cwd);
  const protocol = agentProtocols[agent];
  const cli = hookCommand.findProjectCli(cwd);
  const command = hookCommand.hookCommandFor(agent, protocol.startFailureFallback, cli);
  // Decided before the hook is written, so a project's own policy is never taken for the starter's.
  const policy = options.bare === true || starter.hasPolicy(cwd) ? undefined : starter.writeStarterPolicy(cwd);
  const fixtures = policy === undefined ? undefined : starter.writeStarterFixtures(cwd, agent);
  const settings = readAgentSettings(protocol, cwd);
  const next = protocol.settings.install(settings.document, command);
  const changed = JSON.stringify(next) !== JSON.stringify(settings.document);
  if (changed) writeAgentSettings(settings.path, next);
  if (!cli.found)
    output.printWarning(
      `toolgate is not installed in this project (no ${cli.path} in ${cwd} or a folder above it): until it is, the hook denies every tool call. Install it with: ${hookCommand.installCliLine(cwd)}`,
    );
  if (policy !== undefined && !starter.isStarterPluginInstalled(cwd))
    output.printWarning(
      `${starter.starterPlugin} is not installed in this project: until it is, the hook denies every tool call (the policy names it). Install it with: ${starter.installPluginLine(cwd)}`,
    );
  const file = output.displayPath(settings.path, cwd);
  const selfTest = starter.selfTestLine(protocol, cwd);
  if (options.json)
    return output.printJson({ agent, file: settings.path, command, changed, cli, policy: policy ?? null, fixtures: fixtures ?? null, selfTest });
  output.printLine(changed ? `installed the toolgate hook for ${agent} in ${file}` : `the toolgate hook for ${agent} is already installed in ${file}`);
  output.printLine(output.color.dim(`  ${protocol.events.pre} and ${protocol.events.post} run: ${command}`));
  if (policy !== undefined) {
    output.printLine(`added a starter policy in ${output.displayPath(policy, cwd)}: block-dangerous-shell (${starter.starterPlugin}), store "file"`);
    output.printLine(output.color.dim('  store "file" keeps budgets and rate limits across hook calls (each call is a new process); edit it to add your own'));
    if (fixtures !== undefined)
      output.printLine(output.color.dim(`  ${output.displayPath(fixtures, cwd)}: what it must refuse and let through; run toolgate test`));
  } else if (options.bare !== true) output.printLine(output.color.dim("  this project has a policy of its own: left as it is"));
  else output.printLine(output.color.dim("  --bare: no policy written; until you add one, every tool call is allowed"));
  output.printLine(policy === undefined ? "try it (your policy decides):" : "try it (the starter policy denies it):");
  output.printLine(`  ${selfTest}`);
  output.printLine(output.color.dim("  check it with: toolgate doctor"));
}
