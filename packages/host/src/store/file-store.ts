import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { StoreBackend } from "@toolgate/plugin-sdk/host";
import { withFileLock } from "./file-lock.js";
import * as state from "./window-state.js";

/**
 * The local backend (`store: "file"`): one JSON file per namespace in `dir`, read, changed and written
 * back under that file's lock, and replaced by an atomic rename, so separate processes on one machine
 * (one `toolgate hook` process per call) share every count exactly.
 */
export function createFileStore(dir: string): StoreBackend {
  // Within one process, operations on a namespace queue up, so they never contend for the lock.
  const queues = new Map<string, Promise<unknown>>();
  let dirMade = false;

  const fileOf = (namespace: string) => join(dir, `${encodeURIComponent(namespace)}.json`);

  /** `write`: whether the change is written back, or, as a function, whether this result changed anything. */
  function update<T>(namespace: string, change: (held: state.NamespaceState) => T, write: boolean | ((result: T) => boolean)): Promise<T> {
    const file = fileOf(namespace);
    const run = () => {
      if (!dirMade) {
        mkdirSync(dir, { recursive: true });
        dirMade = true;
      }
      return withFileLock(`${file}.lock`, () => {
        const held = readState(file);
        const result = change(held);
        if (typeof write === "function" ? write(result) : write) writeAtomically(file, held);
        return result;
      });
    };
    const previous = queues.get(namespace) ?? Promise.resolve();
    const next = previous.then(run, run);
    const settled = next.catch(() => {});
    queues.set(namespace, settled);
    void settled.then(() => queues.get(namespace) === settled && queues.delete(namespace));
    return next;
  }

  // Every write also drops what has expired in the file, so it does not grow with keys nobody uses.
  const writing = <T>(namespace: string, now: number, change: (held: state.NamespaceState) => T) =>
    update(
      namespace,
      (held) => {
        state.collect(held, now);
        return change(held);
      },
      true,
    );

  return {
    label: `file:${dir}`,
    get: (namespace, key, now) => update(namespace, (held) => state.getValue(held, key, now), false),
    set: (namespace, key, json, ttlMs, now) => writing(namespace, now, (held) => state.setValue(held, key, json, ttlMs, now)),
    delete: (namespace, key) => update(namespace, (held) => state.deleteKey(held, key), true),
    increment: (namespace, key, amount, windowMs, now) => writing(namespace, now, (held) => state.increment(held, key, amount, windowMs, now)),
    reserve: (namespace, key, request) =>
      request.dryRun
        ? update(namespace, (held) => state.reserve(held, key, request), false)
        : writing(namespace, request.now, (held) => state.reserve(held, key, request)),
    // settleCall looks through the plugins' files: nothing to record.
    index: async () => {},
    settle: async (namespace, key, callId, end, now) => {
      await update(
        namespace,
        (held) => state.settle(held, key, callId, end, now),
        (changed) => changed,
      );
    },
    // A plugin that never wrote has no file, and nothing to settle: it is not even locked.
    settleCall: async (namespaces, callId, end, now) => {
      const held = namespaces.filter((namespace) => existsSync(fileOf(namespace)));
      await Promise.all(
        held.map((namespace) =>
          update(
            namespace,
            (current) => state.settleCall(current, callId, end, now),
            (changed) => changed,
          ),
        ),
      );
    },
    close: async () => {
      await Promise.all(queues.values());
    },
  };
}

function readState(file: string): state.NamespaceState {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return state.emptyState();
    throw error;
  }
  const parsed = JSON.parse(text) as state.NamespaceState;
  if (typeof parsed !== "object" || parsed === null || typeof parsed.values !== "object" || typeof parsed.windows !== "object")
    throw new Error(`${file} is not a toolgate store file`);
  return parsed;
}

// A reader (or a crash) sees the old file or the new one, never half of one.
function writeAtomically(file: string, held: state.NamespaceState): void {
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  writeFileSync(temporary, JSON.stringify(held));
  renameSync(temporary, file);
}
