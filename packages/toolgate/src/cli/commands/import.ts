import { Argument, type Command } from "commander";
import { exitCodes, type ExitCode } from "../cli-error.js";
import { resolveCwd } from "../open-host.js";
import { color, displayPath, printLine } from "../output.js";

interface ImportOptions {
  cwd?: string;
  json?: boolean;
}

const helpText = `
Reads the permissions of .claude/settings.json and .claude/settings.local.json (allow, ask, deny) and adds
each rule to permissions in the project's toolgate.config.* (or creates toolgate.config.json). toolgate
reads Claude Code's forms as Claude Code does (Bash(git status:*), Read(./secrets/**), WebFetch(domain:…),
mcp__server), so the same rules then hold on every surface: the hooks, serve, mcp-proxy and the library.
A rule toolgate cannot read is not copied: it is listed with the form toolgate expected.

Exit codes: 0 every rule copied (or already there), 1 a rule could not be copied or the config could not
be edited, 2 bad usage or no Claude Code settings.`;

export function registerImportCommand(program: Command): void {
  program
    .command("import")
    .description("copy another tool's permission rules into toolgate.config.*")
    .addArgument(new Argument("<source>", "whose rules to copy").choices(["claude-code"]))
    .option("--cwd <dir>", "the project folder (with .claude/ and toolgate.config.*)")
    .option("--json", "machine-readable output on stdout")
    .addHelpText("after", helpText)
    .action(async (_source: string, options: ImportOptions) => {
      process.exitCode = await importClaudeCode(options);
    });
}

async function importClaudeCode(options: ImportOptions): Promise<ExitCode> {
  const cwd = resolveCwd(options.cwd);
  const [{ readClaudeCodePermissions }, { addPermissionsToConfig }] = await Promise.all([
    import("../import/claude-code-permissions.js"),
    import("../install/add-permissions.js"),
  ]);
  const found = readClaudeCodePermissions(cwd);
  const update = await addPermissionsToConfig(cwd, found.rules);
  const code = found.skipped.length > 0 ? exitCodes.failure : exitCodes.ok;
  if (options.json) {
    printLine(
      JSON.stringify({
        ok: code === exitCodes.ok,
        from: found.files,
        config: update.path,
        created: update.created,
        added: update.added,
        skipped: found.skipped,
        notRules: found.notRules,
      }),
    );
    return code;
  }
  const total = found.rules.deny.length + found.rules.ask.length + found.rules.allow.length;
  const where = displayPath(update.path, cwd);
  printLine(
    `${color.green("✓")} ${update.added.length} of ${total} rules added to ${where}${update.created ? " (created)" : ""}, from ${found.files.map((file) => displayPath(file, cwd)).join(" and ")}`,
  );
  for (const { list, rule } of update.added) printLine(`  ${list.padEnd(5)} ${rule}`);
  for (const { list, rule, reason } of found.skipped) printLine(`${color.red("✗")} ${list} ${rule} not copied: ${reason}`);
  if (found.notRules.length > 0) printLine(`  not rules, left to Claude Code: permissions.${found.notRules.join(", permissions.")}`);
  return code;
}
