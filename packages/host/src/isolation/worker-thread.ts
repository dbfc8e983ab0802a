import type { PluginLogger } from "@toolgate/plugin-sdk";
import type { Worker } from "node:worker_threads";
import { ToolgateError } from "../errors.js";
import { describeSafely } from "./describe-safely.js";
import { storeOperations, type HostEventMessage, type HostRequest, type LogLevel, type PluginDescription, type StoreAnswer, type StoreOperation, type WorkerBoot, type WorkerMessage } from "./protocol.js";
import { spawnWorker } from "./spawn-worker.js";

/** A request without its id: the thread numbers them. */
export type Request = HostRequest extends infer Message ? (Message extends HostRequest ? Omit<Message, "id"> : never) : never;

export interface ThreadOptions {
  /** Where the plugin's `log` lines go. */
  log: PluginLogger;
  /** Called once when the thread ends, for whatever reason. */
  onEnd(thread: WorkerThread): void;
  /** Subscribes to a host event for the plugin (`api.on`); returns the unsubscribe, called when the thread ends. */
  subscribe(event: string, deliver: (args: unknown[]) => void): () => void;
  /** Runs one operation of the plugin's `api.store`, which lives in the host. */
  store(operation: StoreOperation, args: unknown[]): Promise<unknown>;
}

interface PendingRequest {
  resolve(value: unknown): void;
  reject(error: Error): void;
  timer: ReturnType<typeof setTimeout> | undefined;
}

interface Boot {
  resolve(plugin: PluginDescription): void;
  reject(error: ToolgateError): void;
  timer: ReturnType<typeof setTimeout> | undefined;
}

const logLevels: readonly LogLevel[] = ["debug", "info", "warn", "error"];
// Node turns a longer delay into 1 ms; anything this long means "no deadline".
const longestTimer = 2 ** 31 - 1;
/** A cold TypeScript transpile can be slow, so the import gets at least this long, whatever the hook timeout. */
const minimumImportMs = 10_000;

/**
 * One worker thread running one instance of a plugin. It settles every request it accepted: with the
 * worker's answer, or with an error when the thread ends (terminated, crashed or exited) first.
 */
export class WorkerThread {
  readonly #worker: Worker;
  readonly #pending = new Map<number, PendingRequest>();
  readonly #subscriptions: (() => void)[] = [];
  readonly #options: ThreadOptions;
  readonly #boot: WorkerBoot;
  #booting: Boot | undefined;
  #nextId = 0;
  #crash: unknown;
  #ended = false;
  #loaded = false;

  /** Resolves once the plugin is loaded, with what the host needs to proxy it; rejects with why it did not load. */
  readonly ready: Promise<PluginDescription>;

  /** Starts a worker that loads the plugin in `boot`. Throws when `boot` cannot cross to the worker (options that are not data). */
  constructor(boot: WorkerBoot, options: ThreadOptions) {
    this.#boot = boot;
    this.#options = options;
    this.#worker = spawnWorker(boot);
    this.#worker.on("message", (message: WorkerMessage) => this.#receive(message));
    this.#worker.on("error", (error) => (this.#crash = error));
    this.#worker.on("exit", (code) => this.end(this.#crash === undefined ? `the worker exited with code ${code}` : `the worker crashed: ${describeSafely(this.#crash)}`));
    this.ready = new Promise((resolve, reject) => {
      const importMs = Math.max(boot.timeoutMs, minimumImportMs);
      const timer = startTimer(importMs, () => this.#failBoot("PLUGIN_LOAD_FAILED", `could not load the module: the import did not finish within ${importMs} ms`));
      this.#booting = { resolve, reject, timer };
    });
  }

  /** The plugin loaded in this thread (it may have ended since). */
  get loaded(): boolean {
    return this.#loaded;
  }

  /** Loaded and not ended: requests go straight to the worker. */
  get serving(): boolean {
    return this.#loaded && !this.#ended;
  }

  /**
   * Runs a hook or tool in the worker. When `signal` aborts before the answer (the host gave up on the
   * call: timeout or close), the worker may be stuck in it, so the thread ends; so it does when no
   * answer came within `deadlineMs`.
   */
  request(request: Request, signal?: AbortSignal, deadlineMs?: number): Promise<unknown> {
    if (this.#ended) return Promise.reject(new Error("the worker has stopped"));
    if (signal?.aborted) return Promise.reject(new Error(`not sent to the worker: ${describeSafely(signal.reason)}`));
    const id = this.#nextId++;
    try {
      this.#worker.postMessage({ ...request, id });
    } catch (error) {
      return Promise.reject(new Error(`its arguments cannot cross the worker boundary (${describeSafely(error)})`));
    }
    return new Promise((resolve, reject) => {
      const timer = deadlineMs === undefined ? undefined : startTimer(deadlineMs, () => this.end(`no answer from the worker within ${deadlineMs} ms`));
      if (this.#pending.size === 0) this.#worker.ref();
      this.#pending.set(id, { resolve, reject, timer });
      signal?.addEventListener("abort", () => this.#pending.has(id) && this.end(`a call was cut off: ${describeSafely(signal.reason)}`), { once: true });
    });
  }

  /** Stops the worker; the boot and every request still waiting fail with `reason`. */
  end(reason: string): void {
    if (this.#ended) return;
    this.#ended = true;
    void this.#worker.terminate();
    if (this.#booting) this.#failBoot("PLUGIN_LOAD_FAILED", `could not load the module: ${reason}`);
    const error = new Error(reason);
    for (const pending of this.#pending.values()) {
      clearTimeout(pending.timer);
      pending.reject(error);
    }
    this.#pending.clear();
    for (const unsubscribe of this.#subscriptions.splice(0)) unsubscribe();
    this.#options.onEnd(this);
  }

  /** Plugin code shares the worker and can post anything: a message that breaks the protocol ends the thread. */
  #receive(message: WorkerMessage): void {
    try {
      this.#handle(message);
    } catch (error) {
      this.end(`the worker broke the protocol (${describeSafely(error)})`);
    }
  }

  #handle(message: WorkerMessage): void {
    switch (message.type) {
      case "imported":
        return this.#startFactoryDeadline();
      case "ready":
        return this.#ready(message.plugin);
      case "failed":
        return this.#failBoot(message.code, message.message);
      case "log":
        return this.#log(message);
      case "settled":
        return this.#settle(message);
      case "store":
        return this.#runStore(message);
      case "subscribe":
        if (this.#ended) return;
        this.#subscriptions.push(this.#options.subscribe(message.event, (args) => this.#deliver({ type: "event", event: message.event, args })));
        return;
      default:
        throw new TypeError("unknown message");
    }
  }

  #runStore({ id, operation, args }: Extract<WorkerMessage, { type: "store" }>): void {
    if (!storeOperations.includes(operation) || !Array.isArray(args)) throw new TypeError("unknown store operation");
    const answer = (message: StoreAnswer) => {
      if (this.#ended) return;
      try {
        this.#worker.postMessage(message);
      } catch (error) {
        this.#worker.postMessage({ type: "store-answer", id, ok: false, error: `the answer cannot cross to the worker (${describeSafely(error)})` });
      }
    };
    this.#options.store(operation, args).then(
      (value) => answer({ type: "store-answer", id, ok: true, value }),
      (error: unknown) => answer({ type: "store-answer", id, ok: false, error: describeSafely(error) }),
    );
  }

  #log({ level, message, details }: Extract<WorkerMessage, { type: "log" }>): void {
    if (!logLevels.includes(level)) throw new TypeError(`unknown log level`);
    this.#options.log[level](String(message), ...(Array.isArray(details) ? details : []));
  }

  /** A payload that cannot be cloned as is (a result's `data` holding a function) goes as its JSON. */
  #deliver(message: HostEventMessage): void {
    if (this.#ended) return;
    try {
      this.#worker.postMessage(message);
    } catch {
      try {
        this.#worker.postMessage(JSON.parse(JSON.stringify(message)) as HostEventMessage);
      } catch (error) {
        this.#options.log.warn(`the "${message.event}" event could not be sent to the worker: ${describeSafely(error)}`);
      }
    }
  }

  #startFactoryDeadline(): void {
    if (!this.#booting) return;
    clearTimeout(this.#booting.timer);
    const { timeoutMs } = this.#boot;
    this.#booting.timer = startTimer(timeoutMs, () => this.#failBoot("PLUGIN_FACTORY_FAILED", `the plugin factory failed: timed out after ${timeoutMs} ms`));
  }

  #ready(plugin: PluginDescription): void {
    const booting = this.#booting;
    if (!booting) return;
    this.#booting = undefined;
    clearTimeout(booting.timer);
    this.#loaded = true;
    if (this.#pending.size === 0) this.#worker.unref();
    booting.resolve(plugin);
  }

  #failBoot(code: ToolgateError["code"], message: string): void {
    const booting = this.#booting;
    if (!booting) return;
    this.#booting = undefined;
    clearTimeout(booting.timer);
    booting.reject(new ToolgateError(code, message, { path: this.#boot.path }));
    this.end("the plugin failed to load");
  }

  #settle(message: Extract<WorkerMessage, { type: "settled" }>): void {
    const pending = this.#pending.get(message.id);
    if (!pending) return;
    this.#pending.delete(message.id);
    clearTimeout(pending.timer);
    if (this.#pending.size === 0) this.#worker.unref();
    if (message.ok) pending.resolve(message.value);
    else pending.reject(new Error(message.error));
  }
}

function startTimer(ms: number, onTimeout: () => void): ReturnType<typeof setTimeout> | undefined {
  return Number.isFinite(ms) && ms <= longestTimer ? setTimeout(onTimeout, ms) : undefined;
}
