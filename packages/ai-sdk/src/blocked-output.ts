/**
 * What a blocked call's `execute` returns in place of the tool's output. It is plain JSON, so it
 * survives the UI message round trip, and `toModelOutput` turns it into the SDK's denial.
 */
export interface BlockedToolOutput {
  readonly type: "toolgate-blocked";
  /** The text the model reads: `Tool call blocked by plugin "<name>": <message>`. */
  readonly reason: string;
  /** The plugin that blocked the call, when one did. */
  readonly blockedBy?: string;
}

/** True for the output of a call toolgate blocked (also after a JSON round trip). */
export function isBlockedToolOutput(output: unknown): output is BlockedToolOutput {
  return (
    typeof output === "object" &&
    output !== null &&
    (output as { type?: unknown }).type === "toolgate-blocked" &&
    typeof (output as { reason?: unknown }).reason === "string"
  );
}

export function blockedToolOutput(reason: string, blockedBy: string | undefined): BlockedToolOutput {
  return Object.freeze(blockedBy === undefined ? { type: "toolgate-blocked", reason } : { type: "toolgate-blocked", reason, blockedBy });
}
