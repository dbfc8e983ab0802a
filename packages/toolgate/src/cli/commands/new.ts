import type { Command } from "commander";
import { mkdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import { CliError, exitCodes, type ExitCode } from "../cli-error.js";
import { color, displayPath, printLine, printWarning } from "../output.js";
import { assertValidPackageName, folderNameOf, namingConventionWarning, pluginNameOf } from "../scaffold/package-name.js";
import { writePluginPackage } from "../scaffold/write-plugin.js";

interface NewOptions {
  dir?: string;
}

const helpText = `
Writes <dir>/<name>/ (without the scope: @acme/toolgate-plugin-x goes to <dir>/toolgate-plugin-x/) with
package.json, tsconfig.json, vitest.config.ts, .gitignore, README.md, src/index.ts (a definePlugin with
a pre_tool_call) and src/index.test.ts (using createTestHost from @toolgate/host/testing).
Written into a project's plugins/ folder, it loads as it is (toolgate check shows it). Name it toolgate-plugin-<name> or
@scope/toolgate-plugin-<name>; the plugin's runtime name is <name>.

Exit codes: 0 written, 2 invalid package name or the folder already exists.`;

export function registerNewCommand(program: Command): void {
  program
    .command("new")
    .description("scaffold a new plugin package")
    .argument("<name>", "the npm package name, e.g. toolgate-plugin-no-secrets")
    .option("--dir <dir>", "the folder to create the package in (default: the current folder)")
    .addHelpText("after", helpText)
    .action(async (name: string, options: NewOptions) => {
      process.exitCode = await scaffold(name, options);
    });
}

async function scaffold(packageName: string, options: NewOptions): Promise<ExitCode> {
  assertValidPackageName(packageName);
  const warning = namingConventionWarning(packageName);
  if (warning) printWarning(warning);
  const parent = resolve(options.dir ?? process.cwd());
  const targetDir = join(parent, folderNameOf(packageName));
  await createEmptyFolder(targetDir);
  const files = await writePluginPackage(targetDir, { packageName, pluginName: pluginNameOf(packageName) });
  printCreated(packageName, targetDir, files);
  return exitCodes.ok;
}

/** Creates the package folder, refusing one that exists: nothing of the user's is ever overwritten. */
async function createEmptyFolder(dir: string): Promise<void> {
  await mkdir(resolve(dir, ".."), { recursive: true });
  try {
    await mkdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST")
      throw new CliError(`${dir} already exists; choose another name or --dir, or remove it first`, exitCodes.usage);
    throw error;
  }
}

function printCreated(packageName: string, targetDir: string, files: readonly string[]): void {
  const where = displayPath(targetDir, process.cwd());
  printLine(`${color.green("created")} ${color.bold(packageName)} in ${where}`);
  for (const file of files) printLine(`  ${file}`);
  printLine();
  printLine("next:");
  printLine(`  cd ${where} && npm install && npm test`);
  printLine(`  drop the folder into a project's plugins/ folder, or publish it and run: toolgate add ${packageName}`);
}
