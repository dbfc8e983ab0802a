import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { configFileNames } from "@toolgate/host/internal";
import type { AgentProtocol } from "../agents/agent-protocol.js";
import { detectPackageManager } from "./install/package-manager.js";

/** The guard the starter policy names: the npm package of `block-dangerous-shell`. */
export const starterPlugin = "toolgate-plugin-block-dangerous-shell";

/**
 * What `toolgate init` writes into a project with no policy: the shell guard, and the file store, because
 * every hook call is a new process and the memory store would forget budgets and rate limits between calls.
 */
const starterConfig = { plugins: [starterPlugin], store: "file" } as const;

/** A config file in `cwd`, or a plugin in its `plugins/` folder: the project has a policy of its own. */
export function hasPolicy(cwd: string): boolean {
  if (configFileNames.some((name) => existsSync(join(cwd, name)))) return true;
  try {
    return readdirSync(join(cwd, "plugins")).length > 0;
  } catch {
    // No plugins folder (or none that can be read): whatever it holds, the host cannot load it either.
    return false;
  }
}

/** Writes the starter policy as `toolgate.config.json`; returns its path. */
export function writeStarterPolicy(cwd: string): string {
  const path = join(cwd, "toolgate.config.json");
  writeFileSync(path, `${JSON.stringify(starterConfig, null, 2)}\n`, { flag: "wx" });
  return path;
}

/**
 * A first fixture file for `toolgate test` beside the starter policy: what the policy must refuse and what it
 * must let through, as `agent` sends them. Written only where there is none; returns its path, or undefined.
 */
export function writeStarterFixtures(cwd: string, agent: string): string | undefined {
  const path = join(cwd, "toolgate.test.yaml");
  if (existsSync(path)) return undefined;
  const text = `# toolgate test: each call, and the verdict the project's policy must give it (docs/testing-policy.md)
cases:
  - name: deleting the home folder is refused
    agent: ${agent}
    tool: Bash
    args: { command: "rm -rf ~" }
    expect: block
    by: block-dangerous-shell
  - name: the project's tests may run
    agent: ${agent}
    tool: Bash
    args: { command: "npm test" }
    expect: allow
`;
  writeFileSync(path, text, { flag: "wx" });
  return path;
}

/** Whether the guard's package can be found from `cwd` (its node_modules or a folder above). */
export function isStarterPluginInstalled(cwd: string): boolean {
  for (let dir = cwd; ; dir = dirname(dir)) {
    if (existsSync(join(dir, "node_modules", starterPlugin, "package.json"))) return true;
    if (dirname(dir) === dir) return false;
  }
}

export function installPluginLine(cwd: string): string {
  return { npm: `npm install --save-dev ${starterPlugin}`, pnpm: `pnpm add -D ${starterPlugin}`, yarn: `yarn add -D ${starterPlugin}` }[
    detectPackageManager(cwd)
  ];
}

/** The fields of a hook input that only a running agent knows; the self-test leaves them out to stay one short line. */
const sessionFields = new Set(["cwd", "session_id", "transcript_path", "timestamp", "tool_use_id"]);

/**
 * One line to paste in the project folder: `rm -rf ~` as `protocol`'s agent sends it, piped to its hook.
 * It is the agent's own sample input (the one `toolgate doctor` sends) with the command swapped.
 */
export function selfTestLine(protocol: AgentProtocol, cwd: string): string {
  const input = Object.fromEntries(Object.entries(protocol.sampleInput(cwd)).filter(([key]) => !sessionFields.has(key)));
  const json = JSON.stringify(input).replaceAll("echo toolgate doctor", "rm -rf ~");
  return `echo '${json}' | npx toolgate hook ${protocol.name}`;
}
