import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { cleanEnvironment } from "../publish/npm.js";

const run = promisify(execFile);
const toolsDir = resolve(dirname(fileURLToPath(import.meta.url)), "../.tmp/tools");

/**
 * The path of a program from npm that a test drives for real (an agent CLI, the MCP Inspector), installed
 * on first use under test/.tmp/tools and reused from there. These are not workspace dependencies: they
 * weigh hundreds of MB only these tests need, and some declare Node 22 though they run on 20, which would
 * print an engine warning on every install. `file` is the program's path inside the installed package.
 */
export async function installedTool(packageName: string, version: string, file: string): Promise<string> {
  const home = join(toolsDir, `${packageName.replace("/", "+")}@${version}`);
  const program = join(home, "node_modules", packageName, file);
  if (existsSync(program)) return program;
  mkdirSync(toolsDir, { recursive: true });
  // Installed aside and renamed into place, so a run that stops half-way never leaves a broken copy behind.
  const staging = mkdtempSync(join(toolsDir, ".install-"));
  try {
    const flags = ["--no-save", "--no-package-lock", "--no-audit", "--no-fund", "--loglevel=error", "--prefix", staging];
    await run("npm", ["install", ...flags, `${packageName}@${version}`], { env: cleanEnvironment(), timeout: 600_000, maxBuffer: 64 * 1024 * 1024 });
    if (!existsSync(program.replace(home, staging))) throw new Error(`${packageName}@${version} installed, but has no ${file}`);
    if (!existsSync(program)) renameSync(staging, home);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return program;
}
