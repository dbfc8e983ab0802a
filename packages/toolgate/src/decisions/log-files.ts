import { basename, dirname, join, resolve } from "node:path";

/** Where the CLI surfaces write records unless the config says otherwise (contract: "where records go"). */
export const defaultLogPath = ".toolgate/decisions.jsonl";

/**
 * The log to read: `--file` (relative to the current folder, as a shell user means it), else the
 * config's `decisions.log` (relative to the config's folder), else `.toolgate/decisions.jsonl` in the project.
 */
export function logPathFor(options: { cwd: string; file?: string | undefined; configured?: { path: string; configDir: string } | undefined }): string {
  if (options.file !== undefined) return resolve(options.file);
  if (options.configured !== undefined) return resolve(options.configured.configDir, options.configured.path);
  return join(options.cwd, defaultLogPath);
}

/** The file a full log is renamed to: `decisions.jsonl` → `decisions.1.jsonl`, beside it. */
export function rotatedPathOf(logPath: string): string {
  const name = basename(logPath);
  const stem = name.endsWith(".jsonl") ? name.slice(0, -".jsonl".length) : name;
  return join(dirname(logPath), `${stem}.1.jsonl`);
}
