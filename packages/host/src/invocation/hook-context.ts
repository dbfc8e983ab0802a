import type { HookContext, PluginLogger, PluginOptions, SessionInfo } from "@toolgate/plugin-sdk";

/**
 * The `ctx` of one hook invocation. The AbortController behind `signal` is made only when a hook reads
 * it, so a synchronous hook that never looks costs no allocation beyond this object.
 */
export class HookInvocationContext implements HookContext {
  #controller: AbortController | undefined;
  #abortReason: unknown;

  constructor(
    readonly plugin: string,
    readonly session: SessionInfo,
    readonly options: PluginOptions,
    readonly log: PluginLogger,
  ) {}

  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#abortReason !== undefined) this.#controller.abort(this.#abortReason);
    }
    return this.#controller.signal;
  }

  abort(reason: unknown): void {
    if (this.#abortReason !== undefined) return;
    this.#abortReason = reason;
    this.#controller?.abort(reason);
  }
}
