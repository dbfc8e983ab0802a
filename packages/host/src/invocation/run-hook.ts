import { describeThrown, pluginLabel, ToolgateError } from "../errors.js";
import type { HookInvocationContext } from "./hook-context.js";
import type { Expirable, HookDeadlines } from "./hook-deadlines.js";
import { nowMs } from "./clock.js";

/** A hook that threw, rejected, timed out, was aborted by `host.close()`, or returned an unreadable value. */
export class HookFailure {
  readonly #brand = true;

  constructor(
    readonly error: ToolgateError,
    readonly timedOut: boolean,
  ) {}

  /** A brand check: unlike `instanceof`, it runs no trap of a Proxy a hook returned. */
  static is(value: unknown): value is HookFailure {
    return typeof value === "object" && value !== null && #brand in value;
  }
}

/** What `runHook` needs of the host: the timeout and the pending hooks (loading passes it for factories). */
export type HookRuntime = HookDeadlines;

export interface HookCall {
  plugin: string;
  path: string | undefined;
  hook: string;
  fn: (...args: unknown[]) => unknown;
  thisArg: unknown;
}

/**
 * The only place plugin hook code is called (`args` ends with `ctx`). A synchronous hook's value (or a
 * HookFailure) comes back as is, with no promise made. For a thenable, `then` is read once and called
 * once, and a PendingHook comes back: it settles with the value, a rejection, the timeout, or
 * `host.close()`, whichever comes first. Errors never escape: they come back as a HookFailure naming
 * the plugin and hook.
 */
export function runHook(target: HookCall, ctx: HookInvocationContext, deadlines: HookDeadlines, args: readonly unknown[]): unknown {
  let value: unknown;
  const started = nowMs();
  try {
    value = target.fn.apply(target.thisArg, args as unknown[]);
  } catch (error) {
    return failure(target, `threw: ${describeThrown(error)}`, "HOOK_FAILED", error);
  }
  if (nowMs() - started > deadlines.timeoutMs) return lateReturn(target, ctx, deadlines, value);
  return outcomeOf(target, ctx, deadlines, value);
}

/** When the hook about to run started: the policy loop's clock, read once per hook (see `runCallHook`). */
export interface HookClock {
  startedAt: number;
}

/**
 * `runHook` for a hook of `(call, ctx)`, such as `pre_tool_call`: a direct call, no arguments array. A
 * hook that returns (or throws) only after its timeout has passed timed out, synchronous or not: its
 * answer does not count. `clock.startedAt` is when it started; the clock read after it returns is left
 * there as the next hook's start, so a run of hooks costs one clock read per hook and no allocation.
 */
export function runCallHook(target: HookCall, ctx: HookInvocationContext, deadlines: HookDeadlines, call: unknown, clock: HookClock): unknown {
  let value: unknown;
  try {
    value = target.fn.call(target.thisArg, call, ctx);
  } catch (error) {
    if (returnedLate(clock, deadlines)) return lateReturn(target, ctx, deadlines, undefined);
    return failure(target, `threw: ${describeThrown(error)}`, "HOOK_FAILED", error);
  }
  if (returnedLate(clock, deadlines)) return lateReturn(target, ctx, deadlines, value);
  return outcomeOf(target, ctx, deadlines, value);
}

function returnedLate(clock: HookClock, deadlines: HookDeadlines): boolean {
  const now = nowMs();
  const late = now - clock.startedAt > deadlines.timeoutMs;
  clock.startedAt = now;
  return late;
}

/**
 * A hook that kept the thread past its timeout before returning: it timed out, as an async hook would
 * have. A thenable it returned is still adopted (so a rejection is not left unhandled) and expired at
 * once, which aborts its ctx: the PendingHook also tells the gate not to hand that ctx to another call.
 */
function lateReturn(target: HookCall, ctx: HookInvocationContext, deadlines: HookDeadlines, value: unknown): unknown {
  const outcome = outcomeOf(target, ctx, deadlines, value);
  if (PendingHook.is(outcome)) {
    outcome.expireLate();
    return outcome;
  }
  return failure(target, `timed out after ${deadlines.timeoutMs} ms (it returned only after its timeout)`, "HOOK_TIMEOUT");
}

/** What a hook returned, as `runHook` hands it on: the value itself, a HookFailure or a PendingHook. */
function outcomeOf(target: HookCall, ctx: HookInvocationContext, deadlines: HookDeadlines, value: unknown): unknown {
  let then: unknown;
  if (value === null || (typeof value !== "object" && typeof value !== "function")) return value;
  try {
    then = (value as { then?: unknown }).then;
    // A `then` that is there but not callable (or a getter that shows one only on a later read) is no
    // result a policy would return: it fails closed instead of passing as "no opinion".
    if (typeof then !== "function" && (then !== undefined || "then" in value))
      return failure(target, "returned a thenable-like value whose then is not a function", "HOOK_FAILED");
  } catch (error) {
    return failure(target, `returned a value whose "then" threw: ${describeThrown(error)}`, "HOOK_FAILED", error);
  }
  if (typeof then !== "function") return value;
  const pending = new PendingHook(target, ctx, deadlines);
  try {
    then.call(
      value,
      (settled: unknown) => pending.settle(settled),
      (error: unknown) => pending.settle(failure(target, `rejected: ${describeThrown(error)}`, "HOOK_FAILED", error)),
    );
  } catch (error) {
    pending.settle(failure(target, `returned a thenable whose "then" threw: ${describeThrown(error)}`, "HOOK_FAILED", error));
  }
  return pending;
}

/**
 * An async hook in flight. Whoever waits registers one continuation (`whenSettled`), called once with
 * the outcome: the policy loop resumes there without a promise of its own per hook.
 */
export class PendingHook implements Expirable {
  deadline = 0;
  previous: Expirable | undefined;
  next: Expirable | undefined;
  #settled = false;
  #outcome: unknown;
  #continuation: ((outcome: unknown) => void) | undefined;

  constructor(
    readonly target: HookCall,
    readonly ctx: HookInvocationContext,
    readonly deadlines: HookDeadlines,
  ) {
    deadlines.track(this);
  }

  static is(value: unknown): value is PendingHook {
    return typeof value === "object" && value !== null && #settled in value;
  }

  /** The first outcome wins; later ones (a value after the timeout) are dropped. */
  settle(outcome: unknown): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#outcome = outcome;
    this.deadlines.untrack(this);
    const continuation = this.#continuation;
    this.#continuation = undefined;
    continuation?.(outcome);
  }

  whenSettled(continuation: (outcome: unknown) => void): void {
    if (this.#settled) continuation(this.#outcome);
    else this.#continuation = continuation;
  }

  /** Thenable, so a caller off the hot path (a plugin factory) may simply await it. It never rejects. */
  // biome-ignore lint/suspicious/noThenProperty: being awaitable is the point
  then(onValue: (outcome: unknown) => unknown): void {
    this.whenSettled(onValue);
  }

  expire(): void {
    const outcome = failure(this.target, `timed out after ${this.deadlines.timeoutMs} ms`, "HOOK_TIMEOUT");
    this.ctx.abort(outcome.error);
    this.settle(outcome);
  }

  /**
   * Times out a hook that returned only after its deadline, before anyone waits on it: also when its
   * thenable has settled already (synchronously), its value does not count.
   */
  expireLate(): void {
    const outcome = failure(this.target, `timed out after ${this.deadlines.timeoutMs} ms (it returned only after its timeout)`, "HOOK_TIMEOUT");
    this.ctx.abort(outcome.error);
    if (this.#settled) this.#outcome = outcome;
    else this.settle(outcome);
  }

  abort(reason: string): void {
    this.ctx.abort(new Error(reason));
    this.settle(failure(this.target, `was aborted: ${reason}`, "HOOK_ABORTED"));
  }
}

/** A pending hook's outcome as a promise, for callers off the hot path (observers, explain). */
export function whenSettled(pending: PendingHook): Promise<unknown> {
  return new Promise((resolve) => pending.whenSettled(resolve));
}

export function failure(target: HookCall, what: string, code: ToolgateError["code"], cause?: unknown): HookFailure {
  const message = `${pluginLabel(target.plugin, target.path)}: ${target.hook} ${what}`;
  const error = new ToolgateError(code, message, { plugin: target.plugin, hook: target.hook, path: target.path, cause });
  return new HookFailure(error, code === "HOOK_TIMEOUT");
}
