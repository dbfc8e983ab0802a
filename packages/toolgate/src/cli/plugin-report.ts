import type { PluginRecord } from "@toolgate/plugin-sdk";
import type { Host } from "@toolgate/host";
import { escapeControl } from "@toolgate/host/internal";
import { color, count, displayPath, printLine } from "./output.js";

/** What `list --json` and `check --json` print. */
export interface PluginReport {
  cwd: string;
  configFile: string | null;
  plugins: readonly PluginRecord[];
}

export function createPluginReport(host: Host, cwd: string): PluginReport {
  return { cwd, configFile: host.configPath ?? null, plugins: host.plugins };
}

export function failedPlugins(plugins: readonly PluginRecord[]): PluginRecord[] {
  return plugins.filter((record) => record.status === "failed");
}

/** The human report: a header, one block per plugin, a summary line. */
/** The human report: a header, one block per plugin, a summary line. Plugin-supplied text is escaped. */
export function printPluginReport(report: PluginReport): void {
  const config = report.configFile ? ` (config: ${escapeControl(displayPath(report.configFile, report.cwd))})` : "";
  printLine(`${color.bold("toolgate")} plugins in ${escapeControl(report.cwd)}${config}`);
  if (report.plugins.length === 0) printLine(color.dim("  no plugins found (looked in plugins/ and toolgate.config.*)"));
  for (const record of report.plugins) printRecord(record, report.cwd);
  printLine(summarize(report.plugins));
}

function printRecord(record: PluginRecord, cwd: string): void {
  const status = record.status === "loaded" ? color.green("loaded") : color.red("failed");
  const version = record.version === undefined ? "" : color.dim(` ${escapeControl(record.version)}`);
  const path = record.path === undefined ? "" : `  ${escapeControl(displayPath(record.path, cwd))}`;
  // A configured hook or the rules show what they are: [command], [http], [model], [rule].
  const kind = record.policy === undefined ? record.source : record.policy.kind;
  const shadow = record.shadow === true ? ", shadow" : "";
  printLine(`  ${status}  ${color.bold(escapeControl(record.name))}${version}  ${color.dim(`[${kind}${shadow}]`)}${path}`);
  if (record.policy?.kind === "rule") printLine(`          ${color.dim(escapeControl(record.policy.name))}`);
  if (record.error !== undefined) printLine(`          ${color.red("error:")} ${escapeControl(record.error)}`);
  for (const warning of record.warnings) printLine(`          ${color.yellow("warning:")} ${escapeControl(warning)}`);
}

function summarize(plugins: readonly PluginRecord[]): string {
  const failed = failedPlugins(plugins).length;
  const loaded = plugins.length - failed;
  const failedText = failed === 0 ? "0 failed" : color.red(`${failed} failed`);
  return `${count(plugins.length, "plugin")}: ${loaded} loaded, ${failedText}`;
}
