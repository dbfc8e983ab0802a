import { Worker } from "node:worker_threads";
import type { HookAnswer } from "../agents/agent-protocol.js";

/** Until the config is read: Node's start, the CLI's load, a config module's own code. */
const startupStallMs = 10_000;
/** Added to the project's `hookTimeoutMs`: the host's own timeout comes first; this only catches a thread it cannot stop. */
const stallMarginMs = 1000;
/** How often this thread tells the watchdog it is alive. */
const heartbeatMs = 100;
/** After asking this thread to answer and exit: how long before the watchdog answers and kills the process itself. */
const lastResortMs = 1000;

const cutOffKey = Symbol.for("toolgate.hook.cut-off");

/** The whole call's deadline (`TOOLGATE_HOOK_TIMEOUT_MS`): when it falls (`Date.now()` time) and the reason a cut-off there gives. */
export interface WholeCallDeadline {
  at: number;
  reason: string;
}

export interface HookWatchdog {
  /** The project's `hookTimeoutMs`, once its config is read: the stall limit becomes it plus `stallMarginMs`. */
  setHookTimeout(hookTimeoutMs: number): void;
}

/**
 * Watches this thread while it runs the project's code. Plugin code that holds the thread (a busy loop,
 * a catastrophic regex, `execSync`, a module's top-level code) stops every timer with it, the host's
 * timeouts and the hook's deadline alike. So a small worker thread keeps the time: this thread beats
 * every 100 ms while its event loop turns, and a silence longer than the project's `hookTimeoutMs` plus
 * `stallMarginMs` (`startupStallMs` before the config is read) is a stall, and so is a thread still
 * running when the whole call's deadline (`TOOLGATE_HOOK_TIMEOUT_MS`) falls, whichever comes first: the
 * deadline's own timer cannot fire while the thread is held. Then the watchdog:
 *
 * 1. kills every process this one started, and theirs (an `execSync` waits for them: see kill-descendants);
 * 2. has this thread call `cutOff(reason)` through the inspector (`Runtime.evaluate` runs between two
 *    steps of the looping code, as a debugger's pause does), which answers with a deny and exits;
 * 3. if this thread is still there `lastResortMs` later (held in native code), writes `fallback` (the
 *    deny, with the reason) itself and kills the process: the `|| <deny>` that `init` installs after the
 *    command then answers for its exit code.
 *
 * The watchdog's thread keeps nothing alive and costs this thread only a message per beat: its start-up
 * runs on another core while this one loads the plugins.
 */
export function startHookWatchdog(cutOff: (reason: string) => void, fallback: (reason: string) => HookAnswer, wholeCall: WholeCallDeadline): HookWatchdog {
  (globalThis as Record<symbol, unknown>)[cutOffKey] = cutOff;
  // Plain text, so that it reads the same in the JSON body and on stderr.
  const placeholder = "__toolgate_cut_off_reason__";
  const template = fallback(placeholder);
  const worker = new Worker(watchdogSource, {
    eval: true,
    workerData: {
      startedAt: Date.now(),
      deadlineAt: wholeCall.at,
      deadlineReason: wholeCall.reason,
      startupStallMs,
      stallMarginMs,
      lastResortMs,
      cutOffKey: cutOffKey.description,
      placeholder,
      fallback: {
        stdout: template.body === undefined ? undefined : `${JSON.stringify(template.body)}\n`,
        stderr: template.stderr,
        exitCode: template.exitCode,
      },
    },
  });
  worker.unref();
  const beat = setInterval(() => worker.postMessage({ at: Date.now() }), heartbeatMs);
  beat.unref();
  return { setHookTimeout: (hookTimeoutMs) => worker.postMessage({ at: Date.now(), hookTimeoutMs }) };
}

/**
 * The watchdog thread, as source: it must run without this bundle (one that loads it costs as much as
 * the hook itself) and without TypeScript. Kept to Node's built-ins.
 */
const watchdogSource = String.raw`
"use strict";
const { parentPort, workerData: data } = require("node:worker_threads");
const { readdirSync, readFileSync, writeSync } = require("node:fs");
let last = data.startedAt;
let limitMs = data.startupStallMs;
let limitText = data.startupStallMs + " ms before the config was read";
parentPort.on("message", (message) => {
  last = Math.max(last, message.at);
  if (message.hookTimeoutMs === undefined) return;
  limitMs = message.hookTimeoutMs + data.stallMarginMs;
  limitText = limitMs + " ms (hookTimeoutMs " + message.hookTimeoutMs + " + " + data.stallMarginMs + " ms)";
});
const watch = setInterval(() => {
  const now = Date.now();
  if (now >= data.deadlineAt) cutOff(data.deadlineReason);
  else if (now - last > limitMs) cutOff("the project's code held the hook's thread for more than " + limitText + "; it was stopped");
}, 50);

function cutOff(reason) {
  clearInterval(watch);
  killDescendants();
  try {
    const { Session } = require("node:inspector");
    const session = new Session();
    session.connectToMainThread();
    const call = "globalThis[Symbol.for(" + JSON.stringify(data.cutOffKey) + ")](" + JSON.stringify(reason) + ")";
    session.post("Runtime.evaluate", { expression: call });
  } catch {
    // No inspector in this Node: the last resort answers.
  }
  setTimeout(() => lastResort(reason), data.lastResortMs);
}

function lastResort(reason) {
  killDescendants();
  const fill = (text, inJson) => text.split(data.placeholder).join(inJson ? JSON.stringify(reason).slice(1, -1) : reason);
  if (data.fallback.stdout !== undefined) writeSync(1, fill(data.fallback.stdout, true));
  if (data.fallback.stderr !== undefined) writeSync(2, fill(data.fallback.stderr, false) + "\n");
  process.kill(process.pid, "SIGKILL");
}

// Every process this one started, and theirs, stopped (so none starts another behind the walk) and then
// killed. Never the process group: the agent that started the hook may share it.
function killDescendants() {
  if (process.platform === "win32") return;
  const childrenOf = process.platform === "linux" && readable("/proc/self/task/" + process.pid + "/children") ? procChildren : psChildren();
  const found = [];
  const pending = childrenOf(process.pid);
  while (pending.length > 0) {
    const pid = pending.pop();
    if (found.includes(pid) || !signal(pid, "SIGSTOP")) continue;
    found.push(pid);
    pending.push(...childrenOf(pid));
  }
  for (const pid of found) signal(pid, "SIGKILL");
}

function signal(pid, name) {
  try {
    process.kill(pid, name);
    return true;
  } catch {
    return false;
  }
}

function readable(file) {
  try {
    readFileSync(file);
    return true;
  } catch {
    return false;
  }
}

function procChildren(pid) {
  let threads = [];
  try {
    threads = readdirSync("/proc/" + pid + "/task");
  } catch {}
  return threads.flatMap((thread) => {
    try {
      return pidsIn(readFileSync("/proc/" + pid + "/task/" + thread + "/children", "utf8"));
    } catch {
      return [];
    }
  });
}

function psChildren() {
  const byParent = new Map();
  try {
    const listing = require("node:child_process").execFileSync("ps", ["-A", "-o", "pid=,ppid="], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], timeout: 2000 });
    for (const line of listing.split("\n")) {
      const [pid, parent] = pidsIn(line);
      if (pid !== undefined && parent !== undefined) byParent.set(parent, [...(byParent.get(parent) || []), pid]);
    }
  } catch {}
  return (pid) => byParent.get(pid) || [];
}

function pidsIn(text) {
  return text.trim().split(/\s+/).filter((word) => /^\d+$/.test(word)).map(Number);
}
`;
