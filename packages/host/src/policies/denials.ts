import type { PolicySource, ToolCall, Verdict } from "@toolgate/plugin-sdk";

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

/**
 * The last `capacity` blocked calls, in a ring: recording is one small object and a slot write, so
 * the blocked path pays no event emission for it. Listing copies, oldest first.
 */
export class DenialLog {
  readonly #ring: Denial[] = [];
  #next = 0;

  constructor(readonly capacity = defaultCapacity) {}

  record(call: ToolCall, verdict: Verdict): void {
    const message = verdict.message ?? "blocked";
    const denial: Denial = verdict.source === undefined ? { at: Date.now(), call, message } : { at: Date.now(), call, message, source: verdict.source };
    if (this.#ring.length < this.capacity) this.#ring.push(denial);
    else this.#ring[this.#next] = denial;
    this.#next = (this.#next + 1) % this.capacity;
  }

  recent(): Denial[] {
    const ring = this.#ring;
    return ring.length < this.capacity ? [...ring] : [...ring.slice(this.#next), ...ring.slice(0, this.#next)];
  }
}
