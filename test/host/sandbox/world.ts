import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { sandboxStatus } from "@toolgate/sandbox";
import { repoRoot } from "../../helpers/cli-harness.js";

const status = sandboxStatus();
/** Why the contained runs cannot happen here, or false where bubblewrap starts. */
export const noSandbox: string | false = status.available ? false : `no sandbox can start here: ${"problem" in status ? status.problem : ""}`;

export const sandboxPlugin = join(repoRoot, "packages/sandbox/src/index.ts");

/** A throwaway project and an "outside" folder beside it, under the repo's git-ignored test/.tmp (the sandbox hides /tmp). */
export interface World {
  root: string;
  project: string;
  outside: string;
  /** The contained command of every surface test: one write inside the project, one outside it. */
  command: string;
  /** Whether the write inside happened, and whether the write outside did. */
  effects(): { inside: boolean; outside: boolean };
  remove(): void;
}

export function makeWorld(prefix: string, config: Record<string, unknown> = { plugins: [sandboxPlugin] }): World {
  const base = join(repoRoot, "test/.tmp");
  mkdirSync(base, { recursive: true });
  const root = mkdtempSync(join(base, `sandbox-${prefix}-`));
  const project = join(root, "project");
  const outside = join(root, "outside");
  mkdirSync(project);
  mkdirSync(outside);
  writeFileSync(join(project, "toolgate.config.json"), `${JSON.stringify(config)}\n`);
  return {
    root,
    project,
    outside,
    command: `echo in > inside.txt; echo out > ${join(outside, "x.txt")}`,
    effects: () => ({
      inside: existsSync(join(project, "inside.txt")) && readFileSync(join(project, "inside.txt"), "utf8") === "in\n",
      outside: existsSync(join(outside, "x.txt")),
    }),
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

const run = promisify(execFile);

/** Runs a command line with real bash in `cwd`, as an agent's shell tool does; never throws. */
export async function bash(command: string, cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run("bash", ["-c", command], { cwd });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}
