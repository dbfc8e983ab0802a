import { spawn } from "node:child_process";
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, isAbsolute, join, resolve } from "node:path";
import type { PreToolCallDecision } from "@toolgate/plugin-sdk";
import { readHookText } from "./hook-dialects.js";
import { hookInputEnv, hookReason, type HookInput } from "./hook-input.js";

/** A hook that failed (non-zero exit, spawn failure, unreadable answer): the gate fails closed on it by default. */
export class PolicyHookError extends Error {
  override name = "PolicyHookError";

  // One line: the gate quotes the first line of a failure, and a reason is often multi-line stderr.
  constructor(message: string) {
    super(message.replace(/\s*\n\s*/g, " | "));
  }
}

// Output beyond this is dropped: a hook that floods its pipes must not grow the host's memory.
const maxOutputBytes = 1024 * 1024;
// Shell built-ins a command may start with; they have no file to check.
const shellBuiltins = new Set(["exit", "true", "false", "echo", "printf", "test", "[", ":", "cd", "exec", "set", "read"]);

/**
 * Checks at load that the command's program exists and may be executed: a path (anything with a `/`)
 * resolved from `baseDir`, or a name found on PATH. Returns why not, or undefined.
 */
export function commandProblem(command: string, baseDir: string): string | undefined {
  const program = firstWord(command);
  if (program === "" || shellBuiltins.has(program)) return undefined;
  if (program.includes("/")) return fileProblem(resolve(baseDir, program));
  const dirs = (process.env.PATH ?? "").split(delimiter).filter(Boolean);
  if (dirs.some((dir) => isAbsolute(dir) && fileProblem(join(dir, program)) === undefined)) return undefined;
  return `"${program}" is not an executable found on PATH`;
}

function fileProblem(path: string): string | undefined {
  try {
    if (!statSync(path).isFile()) return `${path} is not a file`;
  } catch {
    return `${path} does not exist`;
  }
  try {
    accessSync(path, constants.X_OK);
  } catch {
    return `${path} is not executable (chmod +x ${path})`;
  }
  return undefined;
}

function firstWord(command: string): string {
  const trimmed = command.trimStart();
  const quoted = /^(["'])(.*?)\1/.exec(trimmed);
  if (quoted) return quoted[2] ?? "";
  return trimmed.split(/\s/, 1)[0] ?? "";
}

/**
 * Runs one command hook: `/bin/sh -c command` in its own process group, the hook input as JSON on stdin
 * (whatever its size) and as `TOOLGATE_*` variables where they fit, never on the command line. Exit 0 gives the stdout's decision (empty:
 * no opinion), exit 2 a block, anything else a `PolicyHookError`. `signal` (the gate's timeout or
 * `host.close()`) kills the whole process group.
 */
export function runCommandHook(command: string, cwd: string, label: string, input: HookInput, signal: AbortSignal): Promise<PreToolCallDecision | undefined> {
  return new Promise((resolvePromise, reject) => {
    if (signal.aborted) return reject(new PolicyHookError("aborted before it started"));
    const child = spawn("/bin/sh", ["-c", command], {
      cwd,
      env: { ...process.env, ...hookInputEnv(input) },
      detached: true,
      stdio: ["pipe", "pipe", "pipe"],
    });
    const killGroup = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        // The group is gone already.
      }
    };
    signal.addEventListener("abort", killGroup, { once: true });
    const stdout = collect(child.stdout);
    const stderr = collect(child.stderr);
    child.stdin.on("error", () => {
      // A hook that exits without reading its input closes the pipe: not an error of the hook.
    });
    child.stdin.end(JSON.stringify(input));
    child.on("error", (error) => {
      signal.removeEventListener("abort", killGroup);
      reject(new PolicyHookError(`could not be started: ${error.message}`));
    });
    child.on("close", (code, killedBy) => {
      signal.removeEventListener("abort", killGroup);
      // Whatever the hook left running in its group goes with it.
      killGroup();
      const out = stdout.text();
      const err = stderr.text();
      const said = hookReason(err) || hookReason(out);
      if (code === 2) return resolvePromise({ action: "block", message: said || `blocked by command hook ${label} (exit status 2)` });
      if (code !== 0)
        return reject(
          new PolicyHookError(code === null ? `was killed by ${killedBy}${said ? `: ${said}` : ""}` : `exited with status ${code}${said ? `: ${said}` : ""}`),
        );
      const answer = readHookText(out, `blocked by command hook ${label}`);
      if (answer.ok) resolvePromise(answer.decision);
      else reject(new PolicyHookError(answer.reason));
    });
  });
}

function collect(stream: NodeJS.ReadableStream): { text(): string } {
  const chunks: Buffer[] = [];
  let size = 0;
  stream.on("data", (chunk: Buffer) => {
    if (size >= maxOutputBytes) return;
    chunks.push(chunk);
    size += chunk.length;
  });
  return { text: () => Buffer.concat(chunks).toString("utf8") };
}
