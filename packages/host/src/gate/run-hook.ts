import { describeThrown, pluginLabel, ToolgateError } from "../errors.js";
import type { HookInvocationContext } from "./hook-context.js";
import { isThenable } from "./is-thenable.js";

/** A hook that threw, rejected, timed out or was aborted by `host.close()`. */
export class HookFailure {
  constructor(
    readonly error: ToolgateError,
    readonly timedOut: boolean,
  ) {}
}

export type HookOutcome = unknown;

/** A hook still running; `host.close()` settles every one of these. */
export interface InFlightHook {
  abort(reason: string): void;
}

export interface HookRuntime {
  timeoutMs: number;
  readonly inFlight: Set<InFlightHook>;
}

export interface HookCall {
  plugin: string;
  path: string | undefined;
  hook: string;
  fn: (...args: unknown[]) => unknown;
  thisArg: unknown;
}

/**
 * The only place plugin hook code is called (`args` ends with `ctx`). A synchronous hook returns its value (or a HookFailure)
 * synchronously, with no promise made; an async one is raced against the timeout and `host.close()`.
 * Errors never escape: they come back as a HookFailure naming the plugin and hook.
 */
export function runHook(
  target: HookCall,
  ctx: HookInvocationContext,
  runtime: HookRuntime,
  args: readonly unknown[],
): HookOutcome | HookFailure | Promise<HookOutcome | HookFailure> {
  let value: unknown;
  try {
    value = target.fn.apply(target.thisArg, args as unknown[]);
  } catch (error) {
    return failure(target, `threw: ${describeThrown(error)}`, "HOOK_FAILED", error);
  }
  return isThenable(value) ? settle(value, target, ctx, runtime) : value;
}

function settle(
  pending: PromiseLike<unknown>,
  target: HookCall,
  ctx: HookInvocationContext,
  runtime: HookRuntime,
): Promise<HookOutcome | HookFailure> {
  return new Promise((resolve) => {
    const hook = new PendingHook(target, ctx, runtime, resolve);
    pending.then(
      (value) => hook.finish(value),
      (error: unknown) => hook.finish(failure(target, `rejected: ${describeThrown(error)}`, "HOOK_FAILED", error)),
    );
  });
}

/**
 * An async hook in flight, settled by the first of: its value, its rejection, its timeout, `host.close()`.
 * A class rather than closures, so each async hook allocates one object instead of a closure per path.
 */
class PendingHook implements InFlightHook {
  readonly #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    readonly target: HookCall,
    readonly ctx: HookInvocationContext,
    readonly runtime: HookRuntime,
    readonly resolve: (outcome: HookOutcome | HookFailure) => void,
  ) {
    runtime.inFlight.add(this);
    if (Number.isFinite(runtime.timeoutMs)) this.#timer = setTimeout(timeOut, runtime.timeoutMs, this);
  }

  finish(outcome: HookOutcome | HookFailure): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.runtime.inFlight.delete(this);
    this.resolve(outcome);
  }

  abort(reason: string): void {
    this.ctx.abort(new Error(reason));
    this.finish(failure(this.target, `was aborted: ${reason}`, "HOOK_ABORTED"));
  }
}

function timeOut(hook: PendingHook): void {
  const outcome = failure(hook.target, `timed out after ${hook.runtime.timeoutMs} ms`, "HOOK_TIMEOUT");
  hook.ctx.abort(outcome.error);
  hook.finish(outcome);
}

function failure(target: HookCall, what: string, code: ToolgateError["code"], cause?: unknown): HookFailure {
  const message = `${pluginLabel(target.plugin, target.path)}: ${target.hook} ${what}`;
  const error = new ToolgateError(code, message, { plugin: target.plugin, hook: target.hook, path: target.path, cause });
  return new HookFailure(error, code === "HOOK_TIMEOUT");
}
