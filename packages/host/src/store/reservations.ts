import type { EventBus } from "../events.js";
import type { HostLogger } from "../logger.js";
import type { CallEnd, StoreBackend } from "@toolgate/plugin-sdk/host";

interface Held {
  namespace: string;
  key: string;
  /** The reservation's clock minus the real one: a plugin with its own clock (tests) settles on it. */
  clockOffsetMs: number;
  /** When the store settles it on its own (`pendingTtlMs`), in real time: this host may forget it then. */
  dueAt: number;
  /** Made findable by call id for other processes (`gated`). */
  indexed?: boolean;
}

/** Holds between two sweeps for reservations whose end this host never saw (a gate-only host). */
const holdsPerSweep = 1024;

/**
 * Settles reservations when their call ends: `ok` commits, `blocked` releases, `error` does what the
 * reservation asked (release by default). Plugins only reserve; this is the one place that settles.
 * The end is seen here (`tool:end`, a blocked `checkToolCall`) or reported (`postToolCall`); a call
 * reported in a process that did not reserve for it is settled through the store, by call id (found
 * there because `gated` indexed it).
 */
export class ReservationLedger {
  readonly #byCall = new Map<string, Held[]>();
  readonly #inFlight = new Set<Promise<void>>();
  // Reservations still on their way to the backend, by call id, and how the call ended if it already
  // did (a hook that timed out): such a reservation is settled the moment it lands.
  readonly #arriving = new Map<string, { count: number; ended?: CallEnd }>();
  readonly #namespaces = new Set<() => string>();
  #holds = 0;

  constructor(
    private readonly backend: StoreBackend,
    private readonly logger: HostLogger,
  ) {}

  /** A plugin with a store: a call reported here may hold a reservation in its namespace. */
  addNamespace(namespace: () => string): void {
    this.#namespaces.add(namespace);
  }

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
    if (++this.#holds % holdsPerSweep === 0) this.#forgetOverdue(Date.now());
  }

  // A host that only gates (`checkToolCall`, `toolgate serve`) may never hear how a call ended; the
  // store settles such a reservation when it is due, so remembering it longer would only grow this map.
  #forgetOverdue(now: number): void {
    for (const [callId, list] of this.#byCall) if (list.every((held) => held.dueAt <= now)) this.#byCall.delete(callId);
  }

  listen(events: EventBus): void {
    events.emitter.on("tool:end", ({ call, status }) => this.end(call.id, status));
  }

  /** The call ended in this host: its reservations made here settle. */
  end(callId: string, end: CallEnd): void {
    const arriving = this.#arriving.get(callId);
    if (arriving) arriving.ended = end;
    const list = this.#byCall.get(callId);
    if (!list) return;
    this.#byCall.delete(callId);
    for (const held of list) this.#settle(callId, held, end);
  }

  /**
   * The call was gated here and will run elsewhere (`checkToolCall` allowed it, or asks): its
   * reservations are indexed in the store, so whichever process reports its end can settle them.
   */
  gated(callId: string): void {
    for (const held of this.#byCall.get(callId) ?? []) {
      if (held.indexed) continue;
      held.indexed = true;
      const ttlMs = Math.max(1, held.dueAt - Date.now());
      this.#track(this.backend.index(held.namespace, held.key, callId, ttlMs), `index the reservation of call "${callId}" on "${held.key}"`);
    }
  }

  /**
   * The call's end, reported by whoever ran it (`postToolCall`): settled here if this host reserved for
   * it, else in the store, wherever its reservations were made.
   */
  reported(callId: string, end: CallEnd): void {
    if (this.#byCall.has(callId) || this.#arriving.has(callId)) return this.end(callId, end);
    const namespaces = [...new Set([...this.#namespaces].map((namespace) => namespace()))];
    this.#track(this.backend.settleCall(namespaces, callId, end, Date.now()), `settle the reservations of call "${callId}"`);
  }

  #settle(callId: string, held: Held, end: CallEnd): void {
    const settling = this.backend.settle(held.namespace, held.key, callId, end, Date.now() + held.clockOffsetMs, held.indexed === true);
    this.#track(settling, `settle (${end}) the reservation on "${held.key}" (plugin "${held.namespace}")`);
  }

  /** Waits for every settlement under way (before the backend closes). */
  async flush(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.all(this.#inFlight);
  }

  #track(settling: Promise<void>, what: string): void {
    const done = settling
      .catch((error: unknown) => {
        this.logger.warn(`could not ${what} in store ${this.backend.label}; it settles as a failed call when its time to live passes`, error);
      })
      .finally(() => this.#inFlight.delete(done));
    this.#inFlight.add(done);
  }
}
