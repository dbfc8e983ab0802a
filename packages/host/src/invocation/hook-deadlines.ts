/** Something with a deadline that `HookDeadlines` can expire or abort: one pending async hook. */
export interface Expirable {
  /** The tick of `HookDeadlines` at which it expires. */
  deadline: number;
  previous: Expirable | undefined;
  next: Expirable | undefined;
  /** The deadline passed. */
  expire(): void;
  /** `host.close()` cut it short. */
  abort(reason: string): void;
}

/** Ticks per timeout: a hook times out between `timeoutMs` and `timeoutMs` plus two ticks (20%). */
const ticksPerTimeout = 10;
// Node turns a longer delay into 1 ms.
const maxTimerMs = 2 ** 31 - 1;

/**
 * Every pending async hook of one host, in a list ordered by deadline, behind one ticking timer. A timer
 * per hook, or a clock read per hook, cost more than the hook itself: here tracking a hook is an append
 * and a counter read. Every hook has the same timeout, so a hook added later expires later and the
 * timer only ever looks at the head. The timer ticks only while hooks are pending, and keeps the
 * process alive at most one tick after the last one settles.
 */
export class HookDeadlines {
  #head: Expirable | undefined;
  #tail: Expirable | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #tick = 0;
  readonly #tickMs: number;
  readonly #ticksToDeadline: number;

  /** `timeoutMs` is greater than 0, or `Infinity` for no timeout. */
  constructor(readonly timeoutMs: number) {
    this.#tickMs = Math.min(maxTimerMs, Math.max(1, Math.ceil(timeoutMs / ticksPerTimeout)));
    // One tick more than the timeout spans: a hook added just after a tick has less than a tick to go.
    this.#ticksToDeadline = Number.isFinite(timeoutMs) ? Math.ceil(timeoutMs / this.#tickMs) + 1 : Infinity;
  }

  track(item: Expirable): void {
    item.deadline = this.#tick + this.#ticksToDeadline;
    item.previous = this.#tail;
    item.next = undefined;
    if (this.#tail) this.#tail.next = item;
    else this.#head = item;
    this.#tail = item;
    if (this.#timer === undefined && item.deadline !== Infinity) this.#timer = setTimeout(onTick, this.#tickMs, this);
  }

  untrack(item: Expirable): void {
    const { previous, next } = item;
    if (previous) previous.next = next;
    else if (this.#head === item) this.#head = next;
    else return;
    if (next) next.previous = previous;
    else this.#tail = previous;
    item.previous = item.next = undefined;
  }

  /** Aborts every pending hook (`host.close()`). Hooks tracked later, such as `on_session_end`, still get their timeout. */
  abortAll(reason: string): void {
    while (this.#head) {
      const head = this.#head;
      this.untrack(head);
      head.abort(reason);
    }
  }

  /** Stops the timer when no hook is pending, so a closed host keeps no handle open. */
  stopWhenIdle(): void {
    if (this.#head !== undefined || this.#timer === undefined) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** Called by the timer: expires every hook whose deadline has come, and ticks on while any is pending. */
  onTick(): void {
    this.#timer = undefined;
    const tick = ++this.#tick;
    while (this.#head && this.#head.deadline <= tick) {
      const head = this.#head;
      this.untrack(head);
      head.expire();
    }
    if (this.#head && this.#timer === undefined) this.#timer = setTimeout(onTick, this.#tickMs, this);
  }
}

function onTick(deadlines: HookDeadlines): void {
  deadlines.onTick();
}
