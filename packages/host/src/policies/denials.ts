import type { PolicySource, ToolCall } from "@toolgate/plugin-sdk";
import type { EventBus } from "../events.js";

/** One blocked call, as `host.denials()` reports it. */
export interface Denial {
  /** When the call was blocked (ms since the epoch). */
  readonly at: number;
  readonly call: ToolCall;
  readonly message: string;
  /** Who blocked it; absent when the gate itself did (the host closed). */
  readonly source?: PolicySource;
}

const defaultCapacity = 100;

/** The last `capacity` denials in a ring, filled from `tool:blocked`: the gate does not know it exists. */
export function trackDenials(events: EventBus, capacity = defaultCapacity): { recent(): Denial[] } {
  const ring: Denial[] = [];
  let next = 0;
  events.emitter.on("tool:blocked", ({ call, verdict }) => {
    const denial: Denial = verdict.source === undefined ? { at: Date.now(), call, message: verdict.message ?? "blocked" } : { at: Date.now(), call, message: verdict.message ?? "blocked", source: verdict.source };
    if (ring.length < capacity) ring.push(denial);
    else ring[next] = denial;
    next = (next + 1) % capacity;
  });
  return { recent: () => (ring.length < capacity ? [...ring] : [...ring.slice(next), ...ring.slice(0, next)]) };
}
