import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { AgentName } from "../agents/agent-protocol.js";
import { CliError, exitCodes } from "./cli-error.js";
import { packageRoot } from "./package-root.js";

/**
 * The command an agent runs for each tool call: `node <absolute path of this CLI> hook <agent>`, never
 * `npx` (which resolves the package again on every call), followed by `|| <the agent's deny>` so that
 * Node.js failing before toolgate runs still denies. Run from TypeScript source (inside this
 * workspace), the command loads tsx by absolute path, so it works from any folder.
 */
export function hookCommandFor(agent: AgentName, fallback: string): string {
  const fromSource = fileURLToPath(import.meta.url).endsWith(".ts");
  // The installed bin is one bundled file; from source, the entry is main.ts beside this file.
  const main = join(packageRoot(), fromSource ? "src/cli/main.ts" : "dist/cli/main.cjs");
  const loader = fromSource ? `--import ${shellQuote(tsxLoaderUrl())} ` : "";
  return `node ${loader}${shellQuote(main)} hook ${agent} || ${fallback}`;
}

function tsxLoaderUrl(): string {
  try {
    return import.meta.resolve("tsx");
  } catch {
    throw new CliError("toolgate runs from TypeScript source here, and its hook needs tsx to do the same; install tsx or build the CLI", exitCodes.failure);
  }
}

/** Quoted for sh only when it has to be, so the common case stays readable in the settings file. */
function shellQuote(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}
