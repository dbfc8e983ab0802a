import type { PluginLogger } from "./context.js";
import type { BlockResult } from "./results.js";

/** What a store-backed policy does when its store fails: `"block"` fails closed (the convention's default). */
export type OnStoreError = "block" | "allow";

/**
 * A store-backed policy's answer when `api.store` failed: with `onStoreError: "block"` the call is
 * blocked with `message`, with `"allow"` it goes on uncounted; the plugin's log says which, and why.
 */
export function storeFailure(error: unknown, onStoreError: OnStoreError, log: PluginLogger, message: string): BlockResult | undefined {
  const reason = error instanceof Error ? error.message : String(error);
  if (onStoreError === "allow") {
    log.warn(`the store failed, the call is allowed uncounted (onStoreError: "allow"): ${reason}`);
    return undefined;
  }
  log.error(`the store failed, the call is blocked (onStoreError: "block"): ${reason}`);
  return { action: "block", message };
}
