import { ToolgateError } from "../errors.js";
import { describeSafely } from "./describe-safely.js";
import type { PluginDescription, WorkerBoot } from "./protocol.js";
import { WorkerThread, type Request, type ThreadOptions } from "./worker-thread.js";

/** What every thread of a plugin shares: where its log lines go and how it subscribes to host events. */
export type WorkerServices = Omit<ThreadOptions, "onEnd">;

/**
 * A plugin's worker, restarted while the host is open. When a thread ends (a call was cut off, the
 * worker crashed or exited), the next one starts at once, so the next call finds it ready: a fresh
 * instance of the plugin (module imported and factory run again; `on_session_start` is not run again).
 * A restart that fails to load is retried by the next call, never in a loop.
 */
export class PluginWorker {
  readonly #boot: WorkerBoot;
  readonly #services: WorkerServices;
  #thread: WorkerThread | undefined;
  #ready: Promise<WorkerThread> | undefined;
  #closed = false;

  constructor(boot: WorkerBoot, services: WorkerServices) {
    this.#boot = boot;
    this.#services = services;
  }

  /** The first start, as part of loading the plugin: its description, or the load error. */
  async start(): Promise<PluginDescription> {
    let thread: WorkerThread;
    try {
      thread = this.#spawn();
    } catch (error) {
      throw new ToolgateError("PLUGIN_LOAD_FAILED", `its options cannot cross to a worker thread (${describeSafely(error)})`, {
        path: this.#boot.path,
        cause: error,
      });
    }
    return thread.ready;
  }

  /** Sends a hook or tool call to the worker, waiting for a restart in progress. */
  request(request: Request, signal?: AbortSignal, deadlineMs?: number): Promise<unknown> {
    const thread = this.#thread;
    if (thread?.serving) return thread.request(request, signal, deadlineMs);
    if (this.#closed) return Promise.reject(new Error("the host is closed"));
    if (!thread) this.#spawn();
    return this.#ready!.then((ready) => ready.request(request, signal, deadlineMs));
  }

  /** Ends the worker for good: `host.close()`. */
  close(): void {
    this.#closed = true;
    this.#thread?.end("the host closed");
  }

  #spawn(): WorkerThread {
    const thread = new WorkerThread(this.#boot, { ...this.#services, onEnd: (ended) => this.#ended(ended) });
    this.#thread = thread;
    this.#ready = thread.ready.then(
      () => thread,
      (error: unknown) => {
        throw new Error(`the worker could not restart: ${describeSafely(error)}`);
      },
    );
    // An eager restart may have no caller waiting on it; its failure reaches the next caller instead.
    this.#ready.catch(() => {});
    return thread;
  }

  #ended(thread: WorkerThread): void {
    if (thread !== this.#thread) return;
    this.#thread = undefined;
    if (this.#closed || !thread.loaded) {
      this.#ready = undefined;
      return;
    }
    this.#spawn();
  }
}
