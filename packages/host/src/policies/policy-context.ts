import type { PolicyContext, SessionInfo } from "@toolgate/plugin-sdk";
import type { HookInput } from "./hook-input.js";

/** What a policy language (`type: "cedar"`, `type: "cel"`) evaluates a call against. */
export function createPolicyContext(input: HookInput, session: SessionInfo): PolicyContext {
  const context: { -readonly [K in keyof PolicyContext]: PolicyContext[K] } = {
    tool: input.tool_name,
    kind: input.tool_kind,
    args: input.tool_input,
    callId: input.tool_call_id,
    session: session.user === undefined ? { id: session.id } : { id: session.id, user: session.user },
    cwd: input.cwd,
  };
  if (typeof session.agent === "string") context.agent = session.agent;
  return context;
}
