import { statSync } from "node:fs";
import { resolve, sep } from "node:path";
import { CliError, exitCodes } from "../cli/cli-error.js";
import type { PolicyLocation } from "./decide-lines.js";
import { snapshotAt } from "./git-snapshot.js";

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
  let snapshot;
  try {
    snapshot = await snapshotAt(spec, cwd);
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    throw new CliError(`${option} ${spec} is neither a config file nor a git commit of ${cwd}: ${error.message}`, exitCodes.usage);
  }
  const { dir, commit } = snapshot;
  return {
    label: `${spec} (${commit.slice(0, 12)})`,
    location: { cwd: dir },
    reword: (message) => message.split(`${dir}${sep}`).join(`${spec}:`).split(dir).join(`${spec}:.`),
    remove: snapshot.remove,
  };
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
