import { parentPort } from "node:worker_threads";
import type { AgentName, HookAnswer, HookRequest } from "../agents/agent-protocol.js";
import { describeThrown } from "../errors.js";
import { decideHookRequest } from "./hook-decision.js";

/** What the hook command hands the thread that decides: the request it read, and where the project is. */
export interface HookWorkerData {
  toolgateHookWorker: true;
  agent: AgentName;
  request: HookRequest;
  projectDir: string;
}

/** From the deciding thread to the hook command: it is alive, the project's hook timeout, the answer. */
export type HookWorkerMessage = { type: "beat" } | { type: "settings"; hookTimeoutMs: number } | { type: "answer"; answer: HookAnswer };

/** How often the deciding thread says it is alive: a thread that stops saying so is stuck in plugin code. */
export const heartbeatMs = 100;

export function isHookWorkerData(data: unknown): data is HookWorkerData {
  return typeof data === "object" && data !== null && (data as { toolgateHookWorker?: unknown }).toolgateHookWorker === true;
}

/**
 * The deciding thread's side (see hook-watchdog.ts): beats every `heartbeatMs` while its event loop
 * turns, reports the project's `hookTimeoutMs` before plugins load, and posts the answer last. The beat
 * keeps nothing alive: a thread whose work ends without an answer exits, and the hook denies.
 */
export async function runHookWorker(data: HookWorkerData): Promise<void> {
  const port = parentPort;
  if (port === null) throw new Error("runHookWorker runs in a worker thread");
  const post = (message: HookWorkerMessage) => port.postMessage(message);
  const beat = setInterval(() => post({ type: "beat" }), heartbeatMs);
  beat.unref();
  const { agentProtocols } = await import("../agents/agents.js");
  const protocol = agentProtocols[data.agent];
  const answer = await decideHookRequest(protocol, data.request, data.projectDir, (hookTimeoutMs) => post({ type: "settings", hookTimeoutMs })).catch(
    (error: unknown) => protocol.denyForFailure(describeThrown(error), data.request.event),
  );
  clearInterval(beat);
  post({ type: "answer", answer });
}
