import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { AgentProtocol } from "../agents/agent-protocol.js";

/** Environment variables agents set for hook commands, naming the project root. */
const projectDirVariables = ["CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR"];

/**
 * The project whose plugins decide. Not simply the input's `cwd`: an agent's shell can `cd` into a
 * subfolder, and the hook would then find no plugins there and allow everything. So: the project folder
 * the agent names in its environment; else the nearest folder, from `cwd` up, holding the agent's
 * settings file (where `toolgate init` installed the hook); else `cwd`.
 */
export function resolveProjectDir(protocol: AgentProtocol, cwd: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  for (const name of projectDirVariables) {
    const value = env[name];
    if (value !== undefined && value !== "" && existsSync(value)) return resolve(value);
  }
  const start = resolve(cwd ?? process.cwd());
  for (let folder = start; ; folder = dirname(folder)) {
    if (existsSync(join(folder, protocol.settings.file))) return folder;
    if (dirname(folder) === folder) return start;
  }
}
