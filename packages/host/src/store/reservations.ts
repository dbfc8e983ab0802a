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
  // Reservations still on their way to the backend, by call id, and how the call ended if it already
  // did (a hook that timed out): such a reservation is settled the moment it lands.
  readonly #arriving = new Map<string, { count: number; ended?: ToolResult["status"] }>();

  constructor(
    private readonly backend: StoreBackend,
    private readonly logger: HostLogger,
  ) {}

  /** A reservation for `callId` is on its way; `landed` reports what it held, if anything. */
  reserving(callId: string): (held: Held | undefined) => void {
    const known = this.#arriving.get(callId);
    // A retry of a call that already ended is a new attempt, with its own end to wait for.
    const arriving = known && known.ended === undefined ? known : { count: 0 };
    arriving.count++;
    this.#arriving.set(callId, arriving);
    return (held) => {
      if (--arriving.count === 0 && this.#arriving.get(callId) === arriving) this.#arriving.delete(callId);
      if (!held) return;
      if (arriving.ended === undefined) this.#hold(callId, held);
      else this.#settle(callId, held, arriving.ended);
    };
  }

  #hold(callId: string, held: Held): void {
    const list = this.#byCall.get(callId);
    if (list) list.push(held);
    else this.#byCall.set(callId, [held]);
  }

  listen(events: EventBus): void {
    events.emitter.on("tool:end", ({ call, status }) => this.end(call.id, status));
  }

  end(callId: string, status: ToolResult["status"]): void {
    const arriving = this.#arriving.get(callId);
    if (arriving) arriving.ended = status;
    const list = this.#byCall.get(callId);
    if (!list) return;
    this.#byCall.delete(callId);
    for (const held of list) this.#settle(callId, held, status);
  }

  #settle(callId: string, held: Held, status: ToolResult["status"]): void {
    const settlement: Settlement = status === "ok" ? "commit" : status === "error" ? held.onError : "release";
    this.#track(this.backend.settle(held.namespace, held.key, callId, settlement), held, settlement);
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
