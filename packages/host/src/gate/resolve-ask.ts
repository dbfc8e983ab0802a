import type { ToolCall, Verdict } from "@toolgate/plugin-sdk";
import { describeThrown } from "../errors.js";
import type { AskHandler } from "../options.js";
import { callView } from "../call/freeze-call.js";
import { adopt } from "../call/thenable.js";

/** An `ask` on a host with no approver: blocked, saying so. */
export function unapproved(verdict: Verdict): Verdict {
  return { ...verdict, action: "block", message: `${verdict.message ?? "approval needed"} (needs approval, and this host has no onAsk approver)` };
}

/**
 * Turns an `ask` verdict into allow or block through the host's `onAsk`. Without an approver, or when it
 * fails, the call is blocked. `close()` settles every question still open as blocked.
 */
export class AskResolver {
  /** Each open question's settle function, with the verdict that asked. */
  readonly #open = new Map<(answer: Verdict) => void, Verdict>();

  constructor(readonly onAsk: AskHandler | undefined) {}

  resolve(call: ToolCall, verdict: Verdict): Verdict | Promise<Verdict> {
    const message = verdict.message ?? "approval needed";
    const { onAsk } = this;
    if (!onAsk) return unapproved(verdict);
    return new Promise<Verdict>((resolve) => {
      const settle = (answer: Verdict) => {
        if (this.#open.delete(settle)) resolve(answer);
      };
      this.#open.set(settle, verdict);
      const failed = (error: unknown) => settle({ ...verdict, action: "block", message: `${message} (the approver failed: ${describeThrown(error)})` });
      try {
        adopt(onAsk(callView(call, verdict.args), message)).then(
          (approved) => settle(approved === true ? { ...verdict, action: "allow" } : { ...verdict, action: "block", message: `${message} (not approved)` }),
          failed,
        );
      } catch (error) {
        failed(error);
      }
    });
  }

  /** Every open question is answered with `closed(…)`, whatever the approver says later. */
  close(closed: (asked: Verdict) => Verdict): void {
    for (const [settle, asked] of [...this.#open]) settle(closed(asked));
  }
}
