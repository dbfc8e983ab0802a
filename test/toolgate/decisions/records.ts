import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { appendFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { repoRoot } from "../../helpers/cli-harness.js";
import { outputOf, type ChildOutput } from "../../helpers/child-output.js";

/** A record in the shared format (see the contract's "one record per decided call"), with `fields` over the defaults. */
export function record(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    v: 1,
    time: "2026-01-27T10:00:00.000Z",
    surface: "hook:claude-code",
    session: "session-1",
    callId: "toolu_1",
    tool: "Bash",
    kind: "shell",
    verdict: "allow",
    participants: [],
    argsDigest: "sha256:00",
    policy: "sha256:0123456789abcdef",
    ms: 0.4,
    ...fields,
  };
}

/** A record of a call the named plugin blocked. */
export function blocked(plugin: string, message: string, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return record({
    verdict: "block",
    outcome: "blocked",
    source: { kind: "plugin", name: plugin },
    participants: [{ kind: "plugin", name: plugin, action: "block", message, ms: 0.2 }],
    ...fields,
  });
}

/** Appends lines to the log as a writer does: each whole line in one write. */
export function appendRecords(file: string, ...records: (Record<string, unknown> | string)[]): void {
  mkdirSync(dirname(file), { recursive: true });
  appendFileSync(file, records.map((entry) => `${typeof entry === "string" ? entry : JSON.stringify(entry)}\n`).join(""));
}

export const logOf = (project: string) => join(project, ".toolgate/decisions.jsonl");
export const rotatedLogOf = (project: string) => join(project, ".toolgate/decisions.1.jsonl");

const mainPath = join(repoRoot, "packages/toolgate/src/cli/main.ts");
const tsxLoader = pathToFileURL(join(repoRoot, "node_modules/tsx/dist/loader.mjs")).href;

/** A long-running `toolgate <args>` (follow, ui): its stdout as it comes, and a way to wait for some of it. */
export interface RunningCli {
  child: ChildProcessWithoutNullStreams;
  stdout(): string;
  stderr(): string;
  /** Resolves once stdout matches, with the match; rejects after `ms` with what was printed. */
  waitFor(pattern: RegExp, ms?: number): Promise<RegExpMatchArray>;
  stop(): Promise<void>;
}

/** `toolgate <args>` to its end, with `env` as given (FORCE_COLOR included, which `runCli` drops). */
export function runCliWithEnv(args: readonly string[], env: Record<string, string>): Promise<ChildOutput> {
  return outputOf(spawn(process.execPath, ["--import", tsxLoader, mainPath, ...args], { cwd: repoRoot, env: { ...process.env, ...env } }));
}

export function startCli(args: readonly string[], env: Record<string, string> = {}): RunningCli {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  if (env.FORCE_COLOR === undefined) delete childEnv.FORCE_COLOR;
  const child = spawn(process.execPath, ["--import", tsxLoader, mainPath, ...args], { cwd: repoRoot, env: childEnv });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("close", () => resolve()));
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    async waitFor(pattern, ms = 15_000) {
      const deadline = Date.now() + ms;
      for (;;) {
        const match = stdout.match(pattern);
        if (match !== null) return match;
        if (Date.now() > deadline || child.exitCode !== null)
          throw new Error(`stdout never matched ${pattern} (exit ${child.exitCode}); stdout: ${JSON.stringify(stdout)}; stderr: ${JSON.stringify(stderr)}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}
