import { statSync } from "node:fs";
import { resolve, sep } from "node:path";
import type { HostLogger } from "@toolgate/host";
import { createConsoleLogger } from "@toolgate/host/internal";
import { CliError, exitCodes } from "../cli/cli-error.js";
import type { PolicyLocation } from "./decide-calls.js";
import { snapshotAt, type GitSnapshot } from "./git-snapshot.js";

/** One side of a diff: where its policy lives, how the report names it, and the cleanup. */
export interface PolicySide {
  label: string;
  location: PolicyLocation;
  /** A message with the temporary copy's paths written as `<ref>:<path>`. */
  reword(message: string): string;
  remove(): void;
}

/**
 * `--base`/`--head`: nothing is the project as it is on disk; a path to an existing file (from the shell's
 * folder) is that config file with the project's plugins folder (unless the file sets `pluginsDir`); anything else is a git ref,
 * the project folder as committed there.
 */
export async function openPolicySide(spec: string | undefined, cwd: string, option: string): Promise<PolicySide> {
  const same = { reword: (message: string) => message, remove: () => {} };
  if (spec === undefined) return { label: "working tree", location: { cwd }, ...same };
  const file = resolve(spec);
  if (isFile(file)) return { label: spec, location: { cwd, configFile: file }, ...same };
  const { dir, commit, remove } = await snapshotOf(spec, cwd, option);
  return {
    label: `${spec} (${commit.slice(0, 12)})`,
    location: { cwd: dir },
    reword: (message) => message.split(`${dir}${sep}`).join(`${spec}:`).split(dir).join(`${spec}:.`),
    remove,
  };
}

async function snapshotOf(spec: string, cwd: string, option: string): Promise<GitSnapshot> {
  try {
    return await snapshotAt(spec, cwd);
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    throw new CliError(`${option} ${spec}: ${error.message}`, exitCodes.usage);
  }
}

/** The host's warnings for one side, marked with it (`[toolgate base] …`), the copy's paths as `<ref>:<path>`. */
export function sideLogger(side: string, reword: (message: string) => string): HostLogger {
  const logger = createConsoleLogger(`[toolgate ${side}]`);
  const level =
    (write: HostLogger["warn"]) =>
    (message: string, ...details: unknown[]) =>
      write(reword(String(message)), ...details);
  return { debug: level(logger.debug), info: level(logger.info), warn: level(logger.warn), error: level(logger.error) };
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
