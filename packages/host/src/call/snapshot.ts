import type { SessionInfo, ToolCall } from "@toolgate/plugin-sdk";

/** A call as the host snapshotted it at the entry: frozen, its arguments copied once, and their size. */
export interface CallSnapshot {
  readonly call: ToolCall;
  readonly bytes: number;
  /** The session the call belongs to: the host's own, unless the caller named another (`callSession`). */
  readonly session: SessionInfo;
}
