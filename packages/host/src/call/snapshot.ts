import type { SessionInfo, ToolCall } from "@toolgate/plugin-sdk";

/** A call as the host snapshotted it at the entry: its arguments copied and frozen once, and their size. */
export interface CallSnapshot {
  /** Frozen by the time anyone outside the host sees it (`shownCall`); its arguments always are. */
  readonly call: ToolCall;
  readonly bytes: number;
  /** The session the call belongs to: the host's own, unless the caller named another (`callSession`). */
  readonly session: SessionInfo;
  /**
   * Whether `call` is frozen yet. `checkToolCall` leaves it unfrozen: `Object.freeze` is a runtime call that
   * cost a tenth of a call with no participant, where the call object never leaves the host.
   */
  callFrozen: boolean;
}

/** The snapshot's call, frozen before it is handed to plugin code, an event or a caller. */
export function shownCall(snapshot: CallSnapshot): ToolCall {
  if (!snapshot.callFrozen) {
    Object.freeze(snapshot.call);
    snapshot.callFrozen = true;
  }
  return snapshot.call;
}
