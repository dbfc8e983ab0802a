import { spawn } from "node:child_process";
import { join } from "node:path";
import { expect } from "vitest";
import { outputOf, type ChildOutput } from "./child-output.js";
import { makeTempDir, runCli, writeFiles } from "./cli-harness.js";
import { installToolgateBin } from "./hook-harness.js";

/**
 * The policy every real-CLI test runs: blocks a recursive delete on a shell, rewrites `fix` to an echo,
 * and appends one line per post_tool_call to post.log in the project. `postLine` is a JavaScript
 * expression over `call` and `result`: each agent's test logs what it checks.
 */
export function e2ePolicyPlugin(dir: string, postLine: string): string {
  return `
import { appendFileSync } from "node:fs";
export default {
  name: "e2e-policy",
  hooks: {
    pre_tool_call(call) {
      const command = String(call.args.command ?? call.args.cmd ?? "");
      if (call.kind === "shell" && /rm\\s+-rf/.test(command)) return { action: "block", message: "recursive deletes are off limits in this repository" };
      if (command === "fix") return { action: "modify", args: { command: "echo rewritten-by-toolgate" } };
    },
    post_tool_call(call, result) {
      appendFileSync(${JSON.stringify(join(dir, "post.log"))}, ${postLine} + "\\n");
    },
  },
};
`;
}

/** Plugin sources by file name; a function gets the project folder (for files a plugin writes there). */
export type E2ePlugins = Record<string, string | ((dir: string) => string)>;

export interface E2eProject {
  /** The project: hello.txt, canary/keep.txt (what a denied delete must leave alone) and the plugins. */
  dir: string;
  /** The agent's HOME, kept apart from the user's. */
  home: string;
}

/**
 * A fresh project with `plugins` in plugins/ and toolgate in node_modules/.bin, its hook installed by
 * `toolgate init <agent>` unless `init` is false.
 */
export async function e2eProject(agent: string, plugins: E2ePlugins, init = true): Promise<E2eProject> {
  const dir = makeTempDir("os", `${agent}-e2e-`);
  const home = makeTempDir("os", `${agent}-home-`);
  const pluginFiles = Object.entries(plugins).map(([name, source]) => [`plugins/${name}`, typeof source === "string" ? source : source(dir)]);
  writeFiles(dir, { "hello.txt": "hi", "canary/keep.txt": "still here", ...Object.fromEntries(pluginFiles) });
  installToolgateBin(dir);
  if (init) {
    const installed = await runCli(["init", agent, "--bare", "--cwd", dir]);
    expect(installed.code, installed.stderr).toBe(0);
  }
  return { dir, home };
}

/** The environment an agent runs in: a PATH, its own HOME, and what it is told (its fake API and key). */
export function agentEnv(home: string, env: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, ...env };
}

/** Runs an agent CLI headless to the end: its exit code and what it printed. */
export function runAgent(program: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<ChildOutput> {
  return outputOf(spawn(program, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] }));
}
