import type { ToolResult } from "@toolgate/plugin-sdk";
import type { EventBus } from "../events.js";
import type { HostLogger } from "../logger.js";
import type { Settlement, StoreBackend } from "./backend.js";

interface Held {
  namespace: string;
  key: string;
  onError: Settlement;
}

/**
 * Settles reservations when their call ends: `ok` commits, `blocked` releases, `error` does what the
 * reservation asked (release by default). Plugins only reserve; this is the one place that settles.
 */
export class ReservationLedger {
  readonly #byCall = new Map<string, Held[]>();
  readonly #inFlight = new Set<Promise<void>>();

  constructor(
    private readonly backend: StoreBackend,
    private readonly logger: HostLogger,
  ) {}

  hold(callId: string, held: Held): void {
    const list = this.#byCall.get(callId);
    if (list) list.push(held);
    else this.#byCall.set(callId, [held]);
  }

  listen(events: EventBus): void {
    events.emitter.on("tool:end", ({ call, status }) => this.end(call.id, status));
  }

  end(callId: string, status: ToolResult["status"]): void {
    const list = this.#byCall.get(callId);
    if (!list) return;
    this.#byCall.delete(callId);
    for (const held of list) {
      const settlement: Settlement = status === "ok" ? "commit" : status === "error" ? held.onError : "release";
      this.#track(this.backend.settle(held.namespace, held.key, callId, settlement), held, settlement);
    }
  }

  /** Waits for every settlement under way (before the backend closes). */
  async flush(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.all(this.#inFlight);
  }

  #track(settling: Promise<void>, held: Held, settlement: Settlement): void {
    const done = settling
      .catch((error: unknown) => {
        const what = `could not ${settlement} the reservation on "${held.key}" (plugin "${held.namespace}") in store ${this.backend.label}`;
        this.logger.warn(`${what}; it stays counted until its window passes`, error);
      })
      .finally(() => this.#inFlight.delete(done));
    this.#inFlight.add(done);
  }
}
