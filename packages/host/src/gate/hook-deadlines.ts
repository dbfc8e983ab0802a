/** Something with a deadline that `HookDeadlines` can expire or abort: one pending async hook. */
export interface Expirable {
  deadline: number;
  previous: Expirable | undefined;
  next: Expirable | undefined;
  /** The deadline passed. */
  expire(): void;
  /** `host.close()` cut it short. */
  abort(reason: string): void;
}

/**
 * Every pending async hook of one host, in a list ordered by deadline, behind one timer. Every hook has
 * the same timeout, so a hook added later also expires later: adding is an append, and the timer only
 * ever waits for the head. A timer per hook cost more than the hook itself.
 */
export class HookDeadlines {
  #head: Expirable | undefined;
  #tail: Expirable | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;

  /** `timeoutMs` is finite and greater than 0, or `Infinity` for no timeout. */
  constructor(readonly timeoutMs: number) {}

  track(item: Expirable): void {
    item.deadline = performance.now() + this.timeoutMs;
    item.previous = this.#tail;
    item.next = undefined;
    if (this.#tail) this.#tail.next = item;
    else this.#head = item;
    this.#tail = item;
    if (!Number.isFinite(this.timeoutMs)) return;
    if (this.#timer === undefined) this.#arm(this.timeoutMs);
    // The timer keeps the process alive only while a hook is pending (see `untrack`).
    else if (item.previous === undefined) this.#timer.ref();
  }

  untrack(item: Expirable): void {
    const { previous, next } = item;
    if (previous) previous.next = next;
    else if (this.#head === item) this.#head = next;
    else return;
    if (next) next.previous = previous;
    else this.#tail = previous;
    item.previous = item.next = undefined;
    if (this.#head === undefined) this.#timer?.unref();
  }

  /** Aborts every pending hook (`host.close()`). Hooks tracked later, such as `on_session_end`, still get their timeout. */
  abortAll(reason: string): void {
    while (this.#head) {
      const head = this.#head;
      this.untrack(head);
      head.abort(reason);
    }
  }

  #arm(ms: number): void {
    this.#timer = setTimeout(expireDue, Math.min(maxTimerMs, Math.max(1, Math.ceil(ms))), this);
  }

  /** Called by the timer: expires every hook whose deadline passed, then waits for the next one. */
  expireDue(): void {
    this.#timer = undefined;
    const now = performance.now();
    while (this.#head && this.#head.deadline <= now) {
      const head = this.#head;
      this.untrack(head);
      head.expire();
    }
    if (this.#head) this.#arm(this.#head.deadline - now);
  }
}

// Node turns a longer delay into 1 ms; a longer deadline is simply waited for in steps.
const maxTimerMs = 2 ** 31 - 1;

function expireDue(deadlines: HookDeadlines): void {
  deadlines.expireDue();
}
