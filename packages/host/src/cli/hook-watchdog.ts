import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { AgentProtocol, HookAnswer } from "../agents/agent-protocol.js";
import { describeThrown } from "../errors.js";
import type { HookWorkerData, HookWorkerMessage } from "./hook-worker.js";
import { killDescendants } from "./kill-descendants.js";
import { packageRoot } from "./package-root.js";

/** Until the deciding thread has read the config: Node's start, the CLI's load, a config module's own code. */
export const startupStallMs = 10_000;
/** Added to the project's `hookTimeoutMs`: the host's own timeout comes first, this only catches a thread it cannot stop. */
export const stallMarginMs = 1000;
/** How long stopping the thread may take once its processes are killed; past it, the process kills itself. */
const stopWaitMs = 300;

/** The deciding thread under watch. */
export interface WatchedDecision {
  /** The thread's own answer, or (`cutOff`) a deny because it stalled, crashed or ended without one. */
  readonly outcome: Promise<{ answer: HookAnswer; cutOff: boolean }>;
  /**
   * Kills every process the thread started and terminates it. Resolves false when the thread did not
   * stop (held in native code by a process out of reach): exiting would then wait for it.
   */
  stop(): Promise<boolean>;
}

/**
 * Decides `data.request` in a worker thread while this thread keeps the deadline. Plugin code that holds
 * its thread (a busy loop, a catastrophic regex, `execSync`, a module's top-level code) stops the host's
 * timers with it, so the host cannot time it out; this thread can. The worker beats every 100 ms while its
 * event loop turns; a silence longer than the project's `hookTimeoutMs` plus `stallMarginMs` (or
 * `startupStallMs` before the config is read) is a stall, and the answer is a deny.
 */
export function decideInWorker(protocol: AgentProtocol, data: Omit<HookWorkerData, "toolgateHookWorker">): WatchedDecision {
  const worker = spawnHookWorker({ toolgateHookWorker: true, ...data });
  // The thread's stdout is the protocol's no more than this one's: plugin output goes to stderr.
  worker.stdout.on("data", (chunk: Buffer) => process.stderr.write(chunk));
  let stopping: Promise<boolean> | undefined;
  const outcome = new Promise<{ answer: HookAnswer; cutOff: boolean }>((resolve) => {
    const deny = (reason: string) => {
      clearTimeout(stall);
      resolve({ answer: protocol.denyForFailure(reason, data.request.event), cutOff: true });
    };
    let limitMs = startupStallMs;
    let limitText = `${startupStallMs} ms before the config was read`;
    const onStall = () => deny(`the project's code held the hook's thread for more than ${limitText}; it was stopped`);
    let stall: ReturnType<typeof setTimeout> | undefined = setTimeout(onStall, limitMs);
    worker.on("message", (message: HookWorkerMessage) => {
      if (message.type === "answer") {
        clearTimeout(stall);
        resolve({ answer: message.answer, cutOff: false });
      } else if (message.type === "settings") {
        clearTimeout(stall);
        limitMs = message.hookTimeoutMs + stallMarginMs;
        limitText = `${limitMs} ms (hookTimeoutMs ${message.hookTimeoutMs} + ${stallMarginMs} ms)`;
        // hookTimeoutMs: Infinity asks for no timeout; the hook's overall deadline still applies.
        stall = Number.isFinite(limitMs) ? setTimeout(onStall, limitMs) : undefined;
      } else stall?.refresh();
    });
    worker.on("error", (error) => deny(`the deciding thread crashed: ${describeThrown(error)}`));
    worker.on("exit", (code) => deny(`the deciding thread ended (exit code ${code}) without an answer`));
  });
  return { outcome, stop: () => (stopping ??= stop(worker)) };
}

async function stop(worker: Worker): Promise<boolean> {
  killDescendants();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const gaveUp = new Promise<false>((resolve) => (timer = setTimeout(resolve, stopWaitMs, false)));
  const terminated = worker.terminate().then(
    () => true,
    () => true,
  );
  const stopped = await Promise.race([terminated, gaveUp]);
  clearTimeout(timer);
  return stopped;
}

/**
 * Built, the thread runs the CLI's own entry with `hook <agent>`, which sees `workerData` and decides:
 * one bundle, with its code cache. From source, tsx is registered in the thread first (as `--import tsx`
 * did for this one) and only the deciding module is loaded, not the whole CLI.
 */
function spawnHookWorker(workerData: HookWorkerData): Worker {
  const options = { workerData, argv: ["hook", workerData.agent], stdout: true };
  if (!fileURLToPath(import.meta.url).endsWith(".ts")) return new Worker(join(packageRoot(), "dist/cli/main.cjs"), options);
  const entry = JSON.stringify(new URL("./hook-worker.ts", import.meta.url).href);
  const tsx = JSON.stringify(import.meta.resolve("tsx/esm/api"));
  const boot = `import(${tsx}).then((tsx) => tsx.register()).then(() => import(${entry})).then((entry) => entry.runHookWorker(require("node:worker_threads").workerData))`;
  return new Worker(boot, { ...options, eval: true });
}
