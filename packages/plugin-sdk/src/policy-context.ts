/**
 * The call as a policy language reads it (`type: "cedar"` hooks through `@toolgate/cedar`, `type:
 * "cel"` hooks through `@toolgate/cel`): one shape for both, so a rule written in one reads the same
 * call as a rule written in the other. The host builds it from the call and its session.
 */
export interface PolicyContext {
  /** The tool's name as the agent or app calls it (`Bash`, `mcp__fs__write_file`, `deleteFile`). */
  readonly tool: string;
  /** What the tool is, from the shared table: `shell`, `file_write`, …, or `function`. */
  readonly kind: string;
  readonly args: Readonly<Record<string, unknown>>;
  readonly callId: string;
  readonly session: { readonly id: string; readonly user?: string };
  /** The agent the call came from, when the surface knows it (the session's `agent` field: `toolgate hook <agent>` and serve's `/v1/check` with `agent` set it). */
  readonly agent?: string;
  /** The project folder the policy was loaded from. */
  readonly cwd: string;
}
