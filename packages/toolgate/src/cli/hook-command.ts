import { existsSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import type { AgentName } from "../agents/agent-protocol.js";
import { detectPackageManager } from "./install/package-manager.js";

/** Where npm, pnpm, yarn and bun put the `toolgate` bin, inside the folder that holds `node_modules`. */
const binInNodeModules = "node_modules/.bin/toolgate";

/** The toolgate CLI a project's hook commands run: the bin its package manager installed. */
export interface ProjectCli {
  /** The bin's path from the project folder, with `/` separators: `node_modules/.bin/toolgate`, or `../../node_modules/…` in a workspace. */
  path: string;
  /** False when no folder from the project up holds the bin (toolgate is not installed in the project). */
  found: boolean;
}

/**
 * The nearest `node_modules/.bin/toolgate` from `projectDir` up (a workspace hoists it to its root),
 * as a path from the project: the same path in every checkout of the project.
 */
export function findProjectCli(projectDir: string): ProjectCli {
  for (let folder = projectDir; ; folder = dirname(folder)) {
    const bin = join(folder, binInNodeModules);
    if (existsSync(bin)) return { path: relative(projectDir, bin).split(sep).join("/"), found: true };
    if (dirname(folder) === folder) return { path: binInNodeModules, found: false };
  }
}

/**
 * How each agent's hook command names the project folder, so that the command holds no path of this
 * machine and works in every checkout. Claude Code sets `CLAUDE_PROJECT_DIR` for its hooks. Gemini CLI
 * writes the folder, already quoted for the shell, into the command's text in place of
 * `$GEMINI_PROJECT_DIR` before its shell runs it, so that one must stay unquoted. Codex and Copilot CLI
 * name no project folder: they run hooks in the folder they run in, so the path is taken from there.
 */
const projectFolderIn: Record<AgentName, string | undefined> = {
  "claude-code": '"$CLAUDE_PROJECT_DIR"/',
  "gemini-cli": "$GEMINI_PROJECT_DIR/",
  codex: undefined,
  "copilot-cli": undefined,
};

/** What the agent (and so the model) reads when the project's bin is missing, instead of the shell's `sh: 1: …: not found`. */
const cliMissingMessage = "toolgate denied this call because the toolgate CLI is not installed in this project: run npm install, then toolgate doctor";

/**
 * The command an agent runs for each tool call: the project's own bin (`"$CLAUDE_PROJECT_DIR"/node_modules/.bin/toolgate
 * hook claude-code`), never `npx` (which resolves the package again on every tool call, about a second
 * each), checked first so that a missing bin says to run npm install, and followed by `|| <the agent's
 * deny>` so that a bin that is missing or does not start still denies.
 */
export function hookCommandFor(agent: AgentName, fallback: string, cli: ProjectCli): string {
  const program = `${projectFolderIn[agent] ?? ""}${cli.path}`;
  return `{ [ -x ${program} ] || { echo '${cliMissingMessage}' >&2; false; }; } && ${program} hook ${agent} || ${fallback}`;
}

/** What runs before ` hook <agent>` in an installed command (the CLI it starts, after the check that it exists), or undefined for another shape. */
export function hookProgramOf(command: string, agent: AgentName): string | undefined {
  const at = command.lastIndexOf(` hook ${agent}`);
  if (at <= 0) return undefined;
  const before = command.slice(0, at);
  const afterCheck = before.lastIndexOf(" && ");
  return afterCheck === -1 ? before : before.slice(afterCheck + " && ".length);
}

/**
 * The first path in the command's program that exists only on one machine (absolute, home-relative or a
 * `file:` URL), such as the `node /home/ada/…/main.cjs` that earlier versions of `init` wrote.
 */
export function machineSpecificPathIn(command: string, agent: AgentName): string | undefined {
  const program = hookProgramOf(command, agent) ?? command;
  return program
    .split(/[\s;|&()]+/)
    .map((word) => word.replace(/["']/g, ""))
    .find((word) => /^(\/|~|[A-Za-z]:[\\/]|file:)/.test(word));
}

/** Set by agents for their hooks; a command run on an agent's behalf gets only what that agent sets. */
const agentVariables = ["CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR", "GEMINI_CWD"];

/** `command` and the environment as `agent` runs its hook in `projectDir` (through `sh -c`, in that folder). */
export function asAgentRuns(agent: AgentName, command: string, projectDir: string): { command: string; env: NodeJS.ProcessEnv } {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of agentVariables) delete env[name];
  if (agent === "claude-code") return { command, env: { ...env, CLAUDE_PROJECT_DIR: projectDir } };
  if (agent === "gemini-cli") {
    const quoted = shellQuote(projectDir);
    return {
      command: command.replace(/\$(GEMINI_PROJECT_DIR|GEMINI_CWD|CLAUDE_PROJECT_DIR)/g, () => quoted),
      env: { ...env, GEMINI_PROJECT_DIR: projectDir, GEMINI_CWD: projectDir, CLAUDE_PROJECT_DIR: projectDir },
    };
  }
  return { command, env };
}

/** The line that installs toolgate into the project, with the project's package manager. */
export function installCliLine(projectDir: string): string {
  return { npm: "npm install --save-dev toolgate", pnpm: "pnpm add -D toolgate", yarn: "yarn add -D toolgate" }[detectPackageManager(projectDir)];
}

/** Quoted for sh only when it has to be. */
function shellQuote(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}
