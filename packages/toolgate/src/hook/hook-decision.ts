import { readdirSync } from "node:fs";
import { join } from "node:path";
import type { AgentProtocol, HookAnswer, HookRequest } from "../agents/agent-protocol.js";
import { findConfigFile } from "@toolgate/host/internal";

/**
 * Whether the project has code of its own that a hook call would run: a config file (which may name
 * plugins and hooks, and is code itself when it is a module) or anything in `plugins/`. Without either,
 * the host holds nothing but toolgate's own code, and the call is decided in this thread at no extra cost.
 */
export function runsProjectCode(projectDir: string): boolean {
  try {
    if (findConfigFile(projectDir, undefined) !== undefined) return true;
  } catch {
    // Two config files: the host reports it, and the call is denied with it.
    return true;
  }
  try {
    return readdirSync(join(projectDir, "plugins")).some((name) => !name.startsWith("."));
  } catch {
    return false;
  }
}

/**
 * One hook request decided by the project's host: created, asked, closed. `onSettings` hears the
 * project's `hookTimeoutMs` once the config is read, before any plugin loads. Rejects only on a crash
 * or a config or host that cannot be set up.
 */
export async function decideHookRequest(
  protocol: AgentProtocol,
  request: HookRequest,
  projectDir: string,
  onSettings: (hookTimeoutMs: number) => void = () => {},
): Promise<HookAnswer> {
  const [{ createHostWithSettings, resolveSettings, withProjectDecisionsLog }, { stderrLogger }, { answerHookRequest }] = await Promise.all([
    import("@toolgate/host/internal"),
    import("../cli/open-host.js"),
    import("./answer-hook.js"),
  ]);
  const options = {
    cwd: projectDir,
    logger: stderrLogger,
    surface: `hook:${protocol.name}`,
    session: { ...(request.sessionId === undefined ? {} : { id: request.sessionId }), agent: protocol.name },
  };
  // The record is written after the answer (see DecisionLog): the agent never waits for the disk.
  const settings = withProjectDecisionsLog(await resolveSettings(options));
  onSettings(settings.hookTimeoutMs);
  const host = await createHostWithSettings(settings, options);
  try {
    return await answerHookRequest(host, protocol, request);
  } finally {
    await host.close();
  }
}
