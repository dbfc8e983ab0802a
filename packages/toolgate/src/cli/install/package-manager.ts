import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { CliError, exitCodes } from "../cli-error.js";

export type PackageManager = "npm" | "pnpm" | "yarn";

const lockfiles: [file: string, manager: PackageManager][] = [
  ["package-lock.json", "npm"],
  ["pnpm-lock.yaml", "pnpm"],
  ["yarn.lock", "yarn"],
];

/** The project's package manager, from its lockfile in `cwd`; npm when there is none. */
export function detectPackageManager(cwd: string): PackageManager {
  return lockfiles.find(([file]) => existsSync(join(cwd, file)))?.[1] ?? "npm";
}

/** The command that installs `spec` as a dependency with `manager`. */
export function installCommand(manager: PackageManager, spec: string, cwd: string): { command: string; args: string[] } {
  if (manager === "npm") return { command: "npm", args: ["install", spec] };
  if (manager === "yarn") return { command: "yarn", args: ["add", spec] };
  if (isOnPath("pnpm")) return { command: "pnpm", args: ["add", spec] };
  return { command: "npx", args: ["--yes", `pnpm@${pinnedPnpmVersion(cwd) ?? "latest"}`, "add", spec] };
}

/** Runs the install in `cwd`; its output goes to stderr, so stdout holds only toolgate's own lines. */
export async function runInstall(manager: PackageManager, spec: string, cwd: string): Promise<void> {
  const { command, args } = installCommand(manager, spec, cwd);
  const shown = [command, ...args].join(" ");
  process.stderr.write(`$ ${shown}\n`);
  const code = await new Promise<number | null>((resolve, reject) => {
    // Windows runs npm, pnpm and yarn through their .cmd shims, which need a shell.
    const child = spawn(command, args, { cwd, stdio: ["ignore", 2, 2], shell: process.platform === "win32" });
    child.on("error", (error: NodeJS.ErrnoException) =>
      reject(
        error.code === "ENOENT" ? new CliError(`${command} is not installed (the project uses ${manager}); install it and retry`, exitCodes.failure) : error,
      ),
    );
    child.on("close", resolve);
  });
  if (code !== 0) throw new CliError(`\`${shown}\` failed (exit code ${code}) in ${cwd}`, exitCodes.failure);
}

/** `pnpm@9.1.0+sha512...` in the project's `packageManager` field → `9.1.0`. */
function pinnedPnpmVersion(cwd: string): string | undefined {
  try {
    const manifest = JSON.parse(readFileSync(join(cwd, "package.json"), "utf8")) as { packageManager?: unknown };
    const match = typeof manifest.packageManager === "string" ? /^pnpm@([^+\s]+)/.exec(manifest.packageManager) : null;
    return match?.[1];
  } catch {
    return undefined;
  }
}

function isOnPath(command: string): boolean {
  const extensions = process.platform === "win32" ? (process.env.PATHEXT ?? ".CMD;.EXE").split(";") : [""];
  const dirs = (process.env.PATH ?? "").split(delimiter).filter(Boolean);
  return dirs.some((dir) => extensions.some((extension) => existsSync(join(dir, command + extension))));
}
