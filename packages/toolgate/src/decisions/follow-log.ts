import { closeSync, fstatSync, openSync, readSync, statSync, watch, type FSWatcher } from "node:fs";
import { dirname } from "node:path";
import { completeLines, readIfThere, readLog, recordsOf } from "./read-log.js";
import { rotatedPathOf } from "@toolgate/host/internal";
import type { DecisionRecord } from "./record.js";

export interface FollowOptions {
  /** Called with what the log holds when following starts (`initial`), then with each batch of appended records. */
  onRecords(records: DecisionRecord[], initial: boolean): void;
  /** How often the file is checked when no watch event comes (some file systems send none). */
  pollMs?: number;
  /** Reading failed for another reason than a missing file; following goes on at the next check. */
  onError?(error: unknown): void;
}

export interface LogFollower {
  close(): void;
}

interface OpenFile {
  fd: number;
  ino: number;
  offset: number;
  /** Bytes after the last newline read: a line a writer has not finished. */
  pending: Buffer;
}

const chunkBytes = 64 * 1024;

/**
 * Follows the log as `tail -F` does: the records already there, then each line appended, across
 * rotations. The live file is read through an open descriptor, which still reads the old file after
 * the writer renames it to `<name>.1.jsonl`; when the path names another file, the old one is read to
 * its end, then the new one from its start, so no record is lost or repeated. `fs.watch` on the folder
 * wakes it at once; a poll covers file systems whose watch says nothing, and a folder made later.
 */
export function followLog(logPath: string, options: FollowOptions): LogFollower {
  let file: OpenFile | undefined;
  let watcher: FSWatcher | undefined;
  let closed = false;

  const check = () => {
    if (closed) return;
    try {
      const records = readAppended();
      if (records.length > 0) options.onRecords(records, false);
    } catch (error) {
      options.onError?.(error);
    }
    watchFolder();
  };

  function readAppended(): DecisionRecord[] {
    const records: DecisionRecord[] = [];
    if (file !== undefined) {
      appendAll(records, drain(file));
      if (fstatSync(file.fd).size < file.offset) Object.assign(file, { offset: 0, pending: Buffer.alloc(0) });
      if (inodeAt(logPath) === file.ino) return records;
      // Rotated or removed: what the old file held is read (above); the new file starts from its beginning.
      closeSync(file.fd);
      file = undefined;
    }
    file = openIfThere(logPath);
    if (file !== undefined) appendAll(records, drain(file));
    return records;
  }

  function watchFolder(): void {
    if (watcher !== undefined || closed) return;
    try {
      watcher = watch(dirname(logPath), { persistent: false }, check);
      watcher.on("error", () => {
        watcher?.close();
        watcher = undefined;
      });
    } catch {
      watcher = undefined; // no folder yet: the poll tries again
    }
  }

  options.onRecords(readStart(), true);
  watchFolder();
  const poll = setInterval(check, options.pollMs ?? 500);
  return {
    close() {
      closed = true;
      clearInterval(poll);
      watcher?.close();
      if (file !== undefined) closeSync(file.fd);
      file = undefined;
    },
  };

  /**
   * The rotated file, then the live one. The live file is opened first: when the rotated file turns out
   * to be that same file (renamed in between), the descriptor reads it and the rotated file is skipped.
   */
  function readStart(): DecisionRecord[] {
    file = openIfThere(logPath);
    if (file === undefined) return readLog(logPath);
    const rotatedIsOpen = inodeAt(rotatedPathOf(logPath)) === file.ino;
    return [...(rotatedIsOpen ? [] : recordsOf(readIfThere(rotatedPathOf(logPath)))), ...drain(file)];
  }
}

/** `target.push(...items)` without the spread, which passes each item as an argument and overflows the stack on a large log. */
function appendAll<T>(target: T[], items: readonly T[]): void {
  for (const item of items) target.push(item);
}

/** The records appended since the last read; an unfinished last line waits for its end. */
function drain(file: OpenFile): DecisionRecord[] {
  const bytes = Buffer.concat([file.pending, readToEnd(file)]);
  const { rest } = completeLines(bytes);
  file.pending = Buffer.from(rest);
  return recordsOf(bytes);
}

function readToEnd(file: OpenFile): Buffer {
  const chunks: Buffer[] = [];
  for (;;) {
    const chunk = Buffer.allocUnsafe(chunkBytes);
    const read = readSync(file.fd, chunk, 0, chunkBytes, file.offset);
    if (read === 0) return Buffer.concat(chunks);
    file.offset += read;
    chunks.push(chunk.subarray(0, read));
  }
}

function openIfThere(path: string): OpenFile | undefined {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  return { fd, ino: fstatSync(fd).ino, offset: 0, pending: Buffer.alloc(0) };
}

function inodeAt(path: string): number | undefined {
  try {
    return statSync(path).ino;
  } catch {
    return undefined;
  }
}
