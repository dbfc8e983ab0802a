import type { Command } from "commander";
import { CliError, exitCodes, type ExitCode } from "../cli-error.js";
import type { ConfigUpdate } from "../install/add-to-config.js";
import { detectPackageManager, runInstall } from "../install/package-manager.js";
import { dependencyNames, normalizeSpec, packageNameOf } from "../install/package-spec.js";
import { openHost, resolveCwd } from "../open-host.js";
import { color, displayPath, printLine } from "../output.js";

interface AddOptions {
  cwd?: string;
}

const helpText = `
Installs <package> with the project's package manager (from its lockfile: package-lock.json → npm,
pnpm-lock.yaml → pnpm, yarn.lock → yarn; none → npm), checks that it loads as a toolgate plugin, then
adds it to plugins in toolgate.config.{ts,mts,js,mjs} (or creates toolgate.config.mjs). <package> is
anything the package manager installs: a name, name@version, or a local folder (./my-plugin).
A package that is not a toolgate plugin stays installed but is not added to the config.

Exit codes: 0 added (or already there), 1 the install failed, the package is not a toolgate plugin
or the config could not be edited, 2 bad usage.`;

export function registerAddCommand(program: Command): void {
  program
    .command("add")
    .description("install a plugin package and add it to toolgate.config.*")
    .argument("<package>", "the package to install: name, name@version or a local folder")
    .option("--cwd <dir>", "the project folder (with package.json and the lockfile)")
    .addHelpText("after", helpText)
    .action(async (spec: string, options: AddOptions) => {
      process.exitCode = await add(spec, options);
    });
}

async function add(spec: string, options: AddOptions): Promise<ExitCode> {
  const cwd = resolveCwd(options.cwd);
  const before = dependencyNames(cwd);
  await runInstall(detectPackageManager(cwd), normalizeSpec(spec), cwd);
  const name = packageNameOf(spec) ?? newDependency(before, dependencyNames(cwd));
  if (name === undefined) throw new CliError(`cannot tell which package \`${spec}\` installed; run toolgate add with its name`, exitCodes.failure);
  await assertIsPlugin(name, cwd);
  // Loaded here, not at the top: magicast brings Babel's parser, which no other command needs at startup.
  const { addPluginToConfig } = await import("../install/add-to-config.js");
  printUpdate(name, await addPluginToConfig(cwd, name), cwd);
  return exitCodes.ok;
}

/** Loads the package alone in a host, exactly as the config will name it; throws if it does not load. */
async function assertIsPlugin(name: string, cwd: string): Promise<void> {
  const host = await openHost({ cwd, configFile: false, pluginsDir: false, plugins: [name], logger: false });
  const record = host.plugins[0];
  await host.close();
  if (record?.status !== "loaded") {
    const reason = record?.error ?? "the host found nothing to load";
    throw new CliError(`${name} is not a toolgate plugin: ${reason} (it stays installed; the config was not changed)`, exitCodes.failure);
  }
}

function newDependency(before: ReadonlySet<string>, after: ReadonlySet<string>): string | undefined {
  const added = [...after].filter((name) => !before.has(name));
  return added.length === 1 ? added[0] : undefined;
}

function printUpdate(name: string, update: ConfigUpdate, cwd: string): void {
  const file = displayPath(update.path, cwd);
  if (update.change === "present") printLine(`${color.bold(name)} is already in ${file}`);
  else if (update.change === "created") printLine(`${color.green("created")} ${file} with plugins: ["${name}"]`);
  else printLine(`${color.green("added")} ${color.bold(name)} to plugins in ${file}`);
}
