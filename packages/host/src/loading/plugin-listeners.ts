import type { PluginApi } from "@toolgate/plugin-sdk";
import type { HostEmitter } from "../events.js";

interface Subscription {
  readonly event: string;
  readonly listener: (payload: never) => void;
  live: boolean;
  removed: boolean;
}

/** One plugin's `api.on`: what it subscribed, held back until the plugin is registered. */
export interface PluginListeners {
  readonly on: PluginApi["on"];
  /** The plugin registered: its listeners go live, and later `on` calls subscribe at once. */
  activate(): void;
  /** The plugin failed to load: its listeners never hear anything. */
  drop(): void;
}

export function createPluginListeners(emitter: HostEmitter): PluginListeners {
  let state: "pending" | "live" | "dropped" = "pending";
  const pending = new Set<Subscription>();
  const subscribe = (subscription: Subscription) => {
    subscription.live = true;
    emitter.on(subscription.event as never, subscription.listener as never);
  };

  const on: PluginApi["on"] = (event, listener) => {
    if (typeof listener !== "function") throw new TypeError(`api.on("${String(event)}", listener): the listener must be a function`);
    const subscription: Subscription = { event, listener, live: false, removed: false };
    if (state === "live") subscribe(subscription);
    else if (state === "pending") pending.add(subscription);
    return () => {
      if (subscription.removed) return;
      subscription.removed = true;
      pending.delete(subscription);
      if (subscription.live) emitter.off(subscription.event as never, subscription.listener as never);
    };
  };

  return {
    on,
    activate() {
      state = "live";
      for (const subscription of pending) subscribe(subscription);
      pending.clear();
    },
    drop() {
      state = "dropped";
      pending.clear();
    },
  };
}
