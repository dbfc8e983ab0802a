import { execFile } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The environment for the consumer's tools: ours, less vitest's `VITEST*`, the `npm_*`/`pnpm_*`
 * variables a running package manager exports (`npm_config_registry`, `npm_config_userconfig`, …), so
 * only the flags and variables a step passes decide where npm reads from, and `NODE_PATH`, which
 * pnpm's bin shims (`npx vitest`) point at the workspace's node_modules/.pnpm/node_modules: through
 * it a fresh project would resolve the workspace's own packages.
 */
export function cleanEnvironment(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(npm|pnpm)_|^VITEST|^NODE_PATH$/i.test(key)));
  return { ...env, FORCE_COLOR: "0", NO_COLOR: "1", NO_UPDATE_NOTIFIER: "1" };
}

export interface RunOptions {
  cwd: string;
  /** Added to `cleanEnvironment()`. */
  env?: NodeJS.ProcessEnv;
  /** @default 120_000 */
  timeoutMs?: number;
  /** Written to the command's stdin, which is then closed. */
  input?: string;
}

/** Runs a command and returns its exit code and output; never throws for a non-zero exit. */
export async function runCommand(command: string, args: readonly string[], options: RunOptions): Promise<CommandResult> {
  const { cwd, env = {}, timeoutMs = 120_000, input } = options;
  try {
    const running = run(command, args, { cwd, env: { ...cleanEnvironment(), ...env }, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 });
    running.child.stdin?.end(input);
    const { stdout, stderr } = await running;
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number | string; stdout?: string; stderr?: string; message: string };
    if (typeof failed.code !== "number") throw error; // not started, or killed by the timeout
    return { code: failed.code, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" };
  }
}

/** Like `runCommand`, but a non-zero exit throws with the command and everything it printed. */
export async function mustRun(command: string, args: readonly string[], options: RunOptions): Promise<CommandResult> {
  const result = await runCommand(command, args, options);
  if (result.code !== 0)
    throw new Error(`\`${command} ${args.join(" ")}\` exited with ${result.code}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`);
  return result;
}

/** The registry this machine's npm uses (`npm config get registry`), read now, never stored. */
export async function machineRegistry(): Promise<string> {
  const { stdout } = await run("npm", ["config", "get", "registry"], { env: process.env });
  const registry = stdout.trim();
  if (!/^https?:\/\//.test(registry)) throw new Error(`npm config get registry printed ${JSON.stringify(registry)}`);
  return registry.endsWith("/") ? registry : `${registry}/`;
}
