import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { rotatedPathOf } from "@toolgate/host/internal";
import { CliError, exitCodes } from "../cli/cli-error.js";
import { diffPolicies } from "../replay/diff-policies.js";
import type { DiffReport } from "../replay/print-diff.js";
import { assertSomethingToDecide, readSessions } from "../replay/read-sessions.js";

/** A request the page got wrong: answered 400 with its message. */
export class BadDiff extends Error {}

/** Neither an option (`-x`), nor a path out of the folder, nor whitespace: what a branch, tag, commit or `HEAD~2` looks like. */
const refShape = /^(?!-)(?!.*\.\.)[\w./~^@{}-]{1,200}$/;

/**
 * The ui's diff panel: the log's recorded calls decided under the policy committed at `base` and under
 * `head` (another ref, or the project on disk), as `toolgate diff` does. The page names git refs only:
 * a config file named from a browser would be code the ui runs, so a name that is a file is refused.
 */
export async function diffRecordedLog(cwd: string, logPath: string, body: unknown): Promise<DiffReport> {
  const { base, head } = readRequest(body, cwd);
  const files = [rotatedPathOf(logPath), logPath].filter((file) => existsSync(file));
  try {
    const sessions = await readSessions(files);
    assertSomethingToDecide(sessions.calls, files.length > 0 ? files : [logPath], sessions.notReplayed);
    return await diffPolicies({ base, head, cwd, allowed: [] }, sessions);
  } catch (error) {
    if (error instanceof CliError && error.exitCode === exitCodes.usage) throw new BadDiff(error.message);
    throw error;
  }
}

function readRequest(body: unknown, cwd: string): { base: string; head: string | undefined } {
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw new BadDiff("the body must be an object: { base, head? }");
  const { base, head } = body as { base?: unknown; head?: unknown };
  return { base: refOf("base", base, cwd), head: head === undefined || head === "" ? undefined : refOf("head", head, cwd) };
}

function refOf(field: string, value: unknown, cwd: string): string {
  if (typeof value !== "string" || !refShape.test(value)) throw new BadDiff(`${field} must be a git ref (a branch, tag or commit, such as main or HEAD~1)`);
  if (existsSync(resolve(cwd, value)) || existsSync(resolve(value)))
    throw new BadDiff(`${field} "${value}" names a file: the ui compares git refs only (compare config files with toolgate diff)`);
  return value;
}
