import type { Host } from "@toolgate/host";
import { describeThrown } from "@toolgate/host/internal";
import type { AgentProtocol, HookAnswer, HookRequest } from "../agents/agent-protocol.js";
import { parseJsonOrUndefined } from "../agents/hook-input.js";

/** What answering needs from a host. */
export type HookHost = Pick<Host, "plugins" | "onPluginError" | "checkToolCall" | "postToolCall">;

/**
 * The reason a host cannot be trusted to decide: a plugin that did not load would have had its say.
 * The host's gate itself blocks every call then (`onPluginError: "block"`); this is for reports and post events.
 */
export function loadFailure(host: Pick<Host, "plugins">): string | undefined {
  const failed = host.plugins.filter((record) => record.status === "failed");
  if (failed.length === 0) return undefined;
  return failed.map((record) => `plugin "${record.name}" failed to load: ${record.error ?? "unknown error"}`).join("; ");
}

/**
 * The agent's answer to one parsed hook request, decided by `host`. Rejects only on a crash. The call
 * belongs to the agent's session, so a host that serves many agents (`serve`) counts each one apart,
 * and the session names the agent (`session.agent`: the dialect's name).
 */
export async function answerHookRequest(host: HookHost, protocol: AgentProtocol, request: HookRequest): Promise<HookAnswer> {
  // The dialect names the agent (a Cedar policy's principal, a CEL rule's `agent`), with or without a
  // session id: without one the host's own session stands (serve's, one hook process's), naming it too.
  const options = { session: request.sessionId === undefined ? { agent: protocol.name } : { id: request.sessionId, agent: protocol.name } };
  // A pre event is decided by the gate, which blocks every call while a plugin has failed to load.
  if (request.event === "pre") return protocol.answerPre(await host.checkToolCall(request.call, options), request.call);
  // As for pre events: under onPluginError "allow" the plugins that loaded have their say alone.
  const failure = host.onPluginError === "block" ? loadFailure(host) : undefined;
  if (failure !== undefined) return protocol.denyForFailure(failure, request.event);
  await host.postToolCall(request.call, request.result, options);
  return protocol.answerPost();
}

/** The input text as this agent's hook request, or the deny that answers unreadable input. */
export function readHookRequest(protocol: AgentProtocol, text: string): { request: HookRequest } | { answer: HookAnswer } {
  const input = parseJsonOrUndefined(text);
  if (input === undefined) {
    const shown = text.trim() === "" ? "empty" : `not JSON (it starts ${JSON.stringify(text.trim().slice(0, 40))})`;
    return { answer: protocol.denyForFailure(`${protocol.name} hook input: ${shown}`, undefined) };
  }
  try {
    return { request: protocol.parseInput(input) };
  } catch (error) {
    return { answer: protocol.denyForFailure(describeThrown(error), undefined) };
  }
}

/** Any crash on the way to a decision, as a deny naming the cause: the hook never answers by omission. */
export function answerCrash(protocol: AgentProtocol, error: unknown, event: HookRequest["event"] | undefined): HookAnswer {
  return protocol.denyForFailure(describeThrown(error), event);
}
