import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { isPlainObject } from "@toolgate/plugin-sdk/host";
import type { AgentProtocol } from "../agents/agent-protocol.js";
import { CliError, exitCodes } from "./cli-error.js";

export interface SettingsFile {
  path: string;
  exists: boolean;
  document: Record<string, unknown>;
}

/** The agent's settings file in `cwd`; a file that is not a JSON object is an error, never overwritten. */
export function readAgentSettings(protocol: AgentProtocol, cwd: string): SettingsFile {
  const path = join(cwd, protocol.settings.file);
  if (!existsSync(path)) return { path, exists: false, document: {} };
  let document: unknown;
  try {
    document = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new CliError(`${path} is not valid JSON (${(error as Error).message}); fix or remove it, then run init again`, exitCodes.usage);
  }
  if (!isPlainObject(document)) throw new CliError(`${path} must hold a JSON object`, exitCodes.usage);
  return { path, exists: true, document: document as Record<string, unknown> };
}

export function writeAgentSettings(path: string, document: Record<string, unknown>): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(document, null, 2)}\n`);
}
