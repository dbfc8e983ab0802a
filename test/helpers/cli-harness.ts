import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { outputOf, type ChildOutput } from "./child-output.js";

export const repoRoot = resolve(fileURLToPath(import.meta.url), "../../..");
const mainPath = join(repoRoot, "packages/toolgate/src/cli/main.ts");
// An absolute loader URL, so the CLI can run from any folder (a bare `--import tsx` resolves from the cwd).
const tsxLoader = pathToFileURL(join(repoRoot, "node_modules/tsx/dist/loader.mjs")).href;

export type CliRun = ChildOutput;

/** Runs `toolgate <args>` in a real child process, as a user's shell would (no TTY, so no colour). */
export function runCli(args: readonly string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<CliRun> {
  const env: NodeJS.ProcessEnv = { ...process.env, npm_config_audit: "false", npm_config_fund: "false", npm_config_update_notifier: "false", ...options.env };
  delete env.FORCE_COLOR;
  return outputOf(spawn(process.execPath, ["--import", tsxLoader, mainPath, ...args], { cwd: options.cwd ?? repoRoot, env }));
}

/**
 * A fresh folder: under test/.tmp/ (gitignored) when the files inside must resolve the workspace's
 * packages, under the OS temp folder when they must not. Removed by `removeTempDirs`.
 */
export function makeTempDir(where: "repo" | "os", prefix = "cli-"): string {
  const base = where === "repo" ? join(repoRoot, "test/.tmp") : tmpdir();
  mkdirSync(base, { recursive: true });
  const dir = mkdtempSync(join(base, prefix));
  created.push(dir);
  return dir;
}

const created: string[] = [];

export function removeTempDirs(): void {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** Writes `{ "relative/path": content }` under `dir`. */
export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
}

/** Parses JSONL output: one JSON value per non-empty line. */
export function parseJsonLines(text: string): unknown[] {
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as unknown);
}
