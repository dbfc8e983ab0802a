import type { ToolCall, Verdict } from "@toolgate/plugin-sdk";
import { askMessage, blockMessage } from "@toolgate/host";

/** What the model reads for a blocked call: the words every toolgate surface uses (`blockMessage`). */
export const blockReason: (verdict: Verdict) => string = blockMessage;

/** What the human reads for an ask: the words every toolgate surface uses (`askMessage`). */
export const askReason: (verdict: Verdict) => string = askMessage;

/** True when a plugin's `modify` changed the arguments the tool would run with. */
export function hasRewrittenArgs(verdict: Verdict, call: ToolCall): boolean {
  return JSON.stringify(verdict.args) !== JSON.stringify(call.args);
}

/** Keys of the call's own arguments that the verdict's arguments no longer have. */
export function removedArgs(verdict: Verdict, call: ToolCall): string[] {
  return Object.keys(call.args).filter((key) => !Object.hasOwn(verdict.args, key));
}
