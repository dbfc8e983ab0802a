import type { SessionInfo } from "@toolgate/plugin-sdk";
import type { HookInput } from "./hook-input.js";

/**
 * What a policy language (`type: "cedar"`, `type: "cel"`) evaluates a call against: one shape for
 * both, so a rule written for one reads the same call as a rule written for the other.
 */
export interface PolicyContext {
  /** The tool's name as the agent or app calls it (`Bash`, `mcp__fs__write_file`, `deleteFile`). */
  readonly tool: string;
  /** What the tool is, from the shared table: `shell`, `file_write`, …, or `function`. */
  readonly kind: string;
  readonly args: Readonly<Record<string, unknown>>;
  readonly callId: string;
  readonly session: { readonly id: string; readonly user?: string };
  /** The agent the call came from, when the surface knows it (the session's `agent` field). */
  readonly agent?: string;
  /** The project folder the policy was loaded from. */
  readonly cwd: string;
}

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
