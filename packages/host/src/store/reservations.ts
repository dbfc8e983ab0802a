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

/** Reservations of one call still on their way to the backend (see `ReservationLedger.reserving`). */
interface Arriving {
  count: number;
  /** How the call ended, once it did before they all landed: each settles the moment it lands. */
  ended?: CallEnd;
  /** The settlements of those that landed after the end. */
  settlements: Promise<void>[];
  /** Resolves once the last one has landed; made when someone waits for it. */
  landing?: Promise<void>;
  landed?: () => void;
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
  readonly #arriving = new Map<string, Arriving>();
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
    const arriving: Arriving = known && known.ended === undefined ? known : { count: 0, settlements: [] };
    arriving.count++;
    this.#arriving.set(callId, arriving);
    return (held) => {
      const last = --arriving.count === 0;
      if (last && this.#arriving.get(callId) === arriving) this.#arriving.delete(callId);
      if (held) {
        const ended = arriving.ended;
        if (ended === undefined) this.#hold(callId, held);
        else arriving.settlements.push(this.#settle(callId, held, ended));
      }
      if (last) arriving.landed?.();
    };
  }

  /**
   * The settlements under way now, if any. A reservation waits for them first, so that it never counts
   * what a call that already ended here still held (a backend need not keep this process's order).
   */
  settling(): Promise<void> | undefined {
    return this.#inFlight.size === 0 ? undefined : Promise.all(this.#inFlight).then(() => {});
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
    events.emitter.on("tool:end", ({ call, status }) => void this.end(call.id, status));
  }

  /**
   * The call ended in this host: its reservations made here settle, those still arriving as they land.
   * Resolves once every one of them is stored (a settlement that fails is logged, never thrown).
   */
  end(callId: string, end: CallEnd): Promise<void> {
    const waits: Promise<unknown>[] = [];
    const arriving = this.#arriving.get(callId);
    if (arriving) {
      arriving.ended = end;
      waits.push(this.#allLanded(arriving));
    }
    const list = this.#byCall.get(callId);
    if (list) {
      this.#byCall.delete(callId);
      for (const held of list) waits.push(this.#settle(callId, held, end));
    }
    return Promise.all(waits).then(() => {});
  }

  #allLanded(arriving: Arriving): Promise<unknown> {
    arriving.landing ??= new Promise<void>((resolve) => (arriving.landed = resolve));
    return arriving.landing.then(() => Promise.all(arriving.settlements));
  }

  /**
   * The call was gated here and will run elsewhere (`checkToolCall` allowed it, or asks): its
   * reservations are indexed in the store, so whichever process reports its end can settle them.
   */
  gated(callId: string): void {
    // Called for every checked call; most reserved nothing.
    const list = this.#byCall.get(callId);
    if (list === undefined) return;
    for (const held of list) {
      if (held.indexed) continue;
      held.indexed = true;
      const ttlMs = Math.max(1, held.dueAt - Date.now());
      this.#track(this.backend.index(held.namespace, held.key, callId, ttlMs), `index the reservation of call "${callId}" on "${held.key}"`);
    }
  }

  /**
   * The call's end, reported by whoever ran it (`postToolCall`): settled here if this host reserved for
   * it, else in the store, wherever its reservations were made. Resolves once the settlement is stored,
   * so the next check, in any host on the store, counts it.
   */
  reported(callId: string, end: CallEnd): Promise<void> {
    if (this.#byCall.has(callId) || this.#arriving.has(callId)) return this.end(callId, end);
    const namespaces = [...new Set([...this.#namespaces].map((namespace) => namespace()))];
    return this.#track(this.backend.settleCall(namespaces, callId, end, Date.now()), `settle the reservations of call "${callId}"`);
  }

  #settle(callId: string, held: Held, end: CallEnd): Promise<void> {
    const settling = this.backend.settle(held.namespace, held.key, callId, end, Date.now() + held.clockOffsetMs, held.indexed === true);
    return this.#track(settling, `settle (${end}) the reservation on "${held.key}" (plugin "${held.namespace}")`);
  }

  /** Waits for every settlement under way (before the backend closes). */
  async flush(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.all(this.#inFlight);
  }

  /** Resolves when `settling` is done, failed or not: a failure is logged here. */
  #track(settling: Promise<void>, what: string): Promise<void> {
    const done: Promise<void> = settling
      .catch((error: unknown) => {
        this.logger.warn(`could not ${what} in store ${this.backend.label}; it settles as a failed call when its time to live passes`, error);
      })
      .finally(() => this.#inFlight.delete(done));
    this.#inFlight.add(done);
    return done;
  }
}
