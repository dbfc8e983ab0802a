import { spawn } from "node:child_process";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { repoRoot } from "./cli-harness.js";
import { outputOf, type ChildOutput } from "./child-output.js";

export const mainPath = join(repoRoot, "packages/toolgate/src/cli/main.ts");
export const tsxLoader = pathToFileURL(join(repoRoot, "node_modules/tsx/dist/loader.mjs")).href;

export type HookRun = ChildOutput;

/**
 * Installs toolgate into the project `dir` as a package manager does: `node_modules/.bin/toolgate`, here a
 * shell shim (pnpm writes the same kind) that runs this workspace's CLI from source.
 */
export function installToolgateBin(dir: string): void {
  const bin = join(dir, "node_modules/.bin");
  mkdirSync(bin, { recursive: true });
  const quote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;
  writeFileSync(join(bin, "toolgate"), `#!/bin/sh\nexec ${quote(process.execPath)} --import ${quote(tsxLoader)} ${quote(mainPath)} "$@"\n`);
  chmodSync(join(bin, "toolgate"), 0o755);
}

/** `toolgate hook <agent>` in a real child process, with `input` on its stdin (a string is sent as is). */
export function runHook(agent: string, input: unknown, options: { cwd?: string; env?: Record<string, string> } = {}): Promise<HookRun> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  // Set when the tests themselves run inside an agent; the hook would take it as the project.
  delete env.CLAUDE_PROJECT_DIR;
  delete env.GEMINI_PROJECT_DIR;
  Object.assign(env, options.env);
  const child = spawn(process.execPath, ["--import", tsxLoader, mainPath, "hook", agent], { cwd: options.cwd ?? repoRoot, env });
  const output = outputOf(child);
  child.stdin.end(typeof input === "string" ? input : JSON.stringify(input));
  return output;
}

/** stdout must be exactly one JSON document and nothing else. */
export function parseAnswer(run: HookRun): Record<string, unknown> {
  const lines = run.stdout.split("\n").filter((line) => line !== "");
  if (lines.length !== 1) throw new Error(`expected exactly one line on stdout, got ${JSON.stringify(run.stdout)} (stderr: ${run.stderr})`);
  return JSON.parse(lines[0]!) as Record<string, unknown>;
}

/**
 * The policy every agent test runs: blocks `rm -rf`, asks for `deploy`, rewrites `fix` to `ls -la`,
 * explicitly allows `pwd`, and blocks every `shell` call that says "shellonly" (to show kinds). Its
 * post_tool_call appends what it saw to post.log in the project.
 */
export const policyPlugin = `
import { appendFileSync } from "node:fs";
import { join } from "node:path";
export default {
  name: "policy",
  hooks: {
    pre_tool_call(call, ctx) {
      const command = String(call.args.command ?? "");
      if (command.includes("rm -rf")) return { action: "block", message: "rm -rf is not allowed here" };
      if (command === "deploy") return { action: "ask", message: "deploys need a human" };
      if (command === "fix") return { action: "modify", args: { command: "ls -la" } };
      if (command === "drop-flag") return { action: "modify", args: { flag: undefined } };
      if (command === "pwd") return { action: "allow", reason: "pwd is harmless" };
      if (command === "shellonly" && call.kind === "shell") return { action: "block", message: "kind " + call.kind + " session " + ctx.session.id };
    },
    post_tool_call(call, result) {
      appendFileSync(join(${JSON.stringify("__CWD__")}, "post.log"), JSON.stringify({ name: call.name, kind: call.kind, status: result.status, content: result.content }) + "\\n");
    },
  },
};
`;

/** Logs on every call through every channel a plugin has; must change nothing on stdout. */
export const noisyPlugin = `
export default {
  name: "noisy",
  hooks: {
    pre_tool_call(call, ctx) {
      console.log("console.log from noisy");
      console.info("console.info from noisy");
      process.stdout.write("process.stdout.write from noisy\\n");
      ctx.log.info("ctx.log.info from noisy");
    },
    post_tool_call() { console.log("post noise"); },
    on_session_start() { console.log("session start noise"); },
    on_session_end() { console.log("session end noise"); },
  },
};
`;

export const brokenPlugin = "export default { name: 'broken', hooks: { pre_tool_call( { ;\n";
