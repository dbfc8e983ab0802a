import { closeSync, writeFileSync, writeSync } from "node:fs";
import { type FileHandle, lstat, open, rename, unlink, writeFile } from "node:fs/promises";
import { basename, dirname, extname, join } from "node:path";
import { clockMs } from "./decision-draft.js";
import { appendFlags, checkOpenedLog, describeOpenError, logFileMode, openLogSync, prepareLogFolder, UnsafeLogError } from "./safe-log-file.js";

export interface DecisionLogOptions {
  /** The live file; an absolute path. */
  path: string;
  /** Past this size the live file is renamed to `<name>.1<ext>` and a new one starts. @default 10 MiB */
  maxBytes?: number;
  /** Told once, the first time the log cannot be written. */
  report: (message: string) => void;
  /** How often a writer that holds the file looks whether it was rotated or is full. @default 1000 */
  recheckMs?: number;
}

const defaultMaxBytes = 10 * 1024 * 1024;
/** What may wait for the disk at once; past it new lines are dropped (and that is reported). */
const maxQueuedBytes = 8 * 1024 * 1024;
/** One write call carries at most this much (whole lines): O_APPEND keeps each call in one piece. */
const maxWriteBytes = 1024 * 1024;
/** A rotation lock older than this was left by a process that died holding it. */
const staleLockMs = 10_000;
/**
 * How often a long-lived writer looks whether the file it holds is still the live one and whether it is
 * full: two `stat`s cost more than the write itself. Between looks, a line may land in the file another
 * process has just rotated: `<name>.1`, which readers read first, so it is not lost.
 */
const defaultRecheckMs = 1000;

/**
 * An append-only JSON-lines file shared by every process of a project (one `toolgate hook` process per
 * tool call, a `serve`, an `mcp-proxy`). Lines are queued and written off the caller's path, through
 * libuv's threads: `append` never touches the disk, so a full disk, a read-only folder or a slow one
 * never delays a decision. Each write call carries whole lines to a file opened with O_APPEND, so lines
 * from concurrent processes never interleave. Rotation renames the live file under a lock file (one
 * process rotates; the others see the file they hold renamed and reopen the live one), so no line is
 * lost: a line written to the file being renamed lands in `<name>.1<ext>`, which readers read first.
 */
export class DecisionLog {
  readonly path: string;
  readonly rotatedPath: string;
  readonly #maxBytes: number;
  readonly #recheckMs: number;
  readonly #report: (message: string) => void;
  #queue: string[] = [];
  #queuedBytes = 0;
  #handle: FileHandle | undefined;
  /** When the held file was last seen to be the live one, below the limit. */
  #checkedAt = 0;
  #pumping: Promise<void> | undefined;
  #reported = false;
  #closed = false;
  /** Set at exit: lines are only queued, for the one synchronous write (no pump, no libuv thread to join). */
  #exiting = false;
  /** Called at exit before the leftovers are written: the recorder hands over what it still holds. */
  beforeExit: (() => void) | undefined;

  constructor(options: DecisionLogOptions) {
    this.path = options.path;
    this.rotatedPath = rotatedPathOf(options.path);
    this.#maxBytes = options.maxBytes ?? defaultMaxBytes;
    this.#recheckMs = options.recheckMs ?? defaultRecheckMs;
    this.#report = options.report;
    watchExit(this);
  }

  /** Queues lines (each ending in `\n`) and starts writing them if nothing is being written. */
  append(text: string): void {
    if (this.#closed) return;
    if (this.#queuedBytes + text.length > maxQueuedBytes) {
      this.#fail(new Error(`more than ${maxQueuedBytes} bytes of records are waiting for the disk; new ones are dropped`));
      return;
    }
    this.#queue.push(text);
    this.#queuedBytes += text.length;
    if (this.#exiting) return;
    this.#pumping ??= this.#pump().finally(() => {
      this.#pumping = undefined;
    });
  }

  /** Resolves once every line appended so far is written (or given up on). Never rejects. */
  flush(): Promise<void> {
    return this.#pumping ?? Promise.resolve();
  }

  /** Writes what is queued, then closes the file; later lines are ignored. */
  async close(): Promise<void> {
    await this.flush();
    this.#closed = true;
    openLogs.delete(this);
    const handle = this.#handle;
    this.#handle = undefined;
    await handle?.close().catch(() => {});
  }

  async #pump(): Promise<void> {
    while (this.#queue.length > 0) {
      const chunk = this.#takeChunk();
      try {
        await this.#write(chunk);
      } catch (error) {
        this.#fail(error);
        await this.#dropHandle();
      }
    }
  }

  #takeChunk(): string {
    let size = 0;
    let count = 0;
    while (count < this.#queue.length && (count === 0 || size + this.#queue[count]!.length <= maxWriteBytes)) size += this.#queue[count++]!.length;
    const chunk = this.#queue.splice(0, count).join("");
    this.#queuedBytes -= chunk.length;
    return chunk;
  }

  async #write(text: string): Promise<void> {
    const handle = await this.#current();
    const buffer = Buffer.from(text);
    const { bytesWritten } = await handle.write(buffer, 0, buffer.length);
    // Only a full disk writes part of a line: end it, so the next process's line starts on its own.
    if (bytesWritten < buffer.length) {
      await handle.write("\n").catch(() => {});
      throw Object.assign(new Error(`wrote ${bytesWritten} of ${buffer.length} bytes (is the disk full?)`), { code: "ENOSPC" });
    }
  }

  /**
   * The live file, reopened when another process renamed it away, and rotated first when it is full. A full
   * file whose rotation another process holds is written on: that process renames it with these lines in.
   */
  async #current(mayRotate = true): Promise<FileHandle> {
    if (this.#handle !== undefined) {
      if (clockMs() - this.#checkedAt < this.#recheckMs) return this.#handle;
      // lstat: a link swapped in for the live file is another file, reopened (and refused) below.
      const [held, live] = await Promise.all([this.#handle.stat(), lstat(this.path).catch(() => undefined)]);
      if (live !== undefined && live.ino === held.ino) {
        if (!held.isFile() || held.size < this.#maxBytes) {
          this.#checkedAt = clockMs();
          return this.#handle;
        }
        await this.#rotate();
      }
      await this.#dropHandle();
    }
    const handle = await this.#open();
    const opened = await handle.stat();
    try {
      checkOpenedLog(opened, this.path);
      if ((opened.mode & 0o077) !== 0) await handle.chmod(logFileMode);
    } catch (error) {
      await handle.close();
      throw error;
    }
    if (opened.size >= this.#maxBytes && mayRotate) {
      await handle.close();
      await this.#rotate();
      return this.#current(false);
    }
    this.#handle = handle;
    this.#checkedAt = clockMs();
    return handle;
  }

  /** The live file, never through a link: see `safe-log-file.ts` for what is refused. */
  async #open(): Promise<FileHandle> {
    const dir = dirname(this.path);
    await prepareLogFolder(this.path);
    // `wx` (O_EXCL) does not follow a link either: a planted `.gitignore` link makes it fail, harmlessly.
    if (basename(dir) === ".toolgate") await writeFile(join(dir, ".gitignore"), gitignore, { flag: "wx", mode: logFileMode }).catch(() => {});
    try {
      return await open(this.path, appendFlags, logFileMode);
    } catch (error) {
      throw describeOpenError(error, this.path);
    }
  }

  /**
   * One process renames the full file, under `<path>.lock` (created with O_EXCL). A process that finds
   * the lock taken leaves the rotation to its holder; the size is read again under the lock, so a file
   * another process has just rotated is not rotated twice.
   */
  async #rotate(): Promise<void> {
    const lockPath = `${this.path}.lock`;
    if (!(await takeLock(lockPath))) return;
    try {
      // rename moves a link itself, never what it points at; lstat reads the file, not a link's target.
      const live = await lstat(this.path).catch(() => undefined);
      if (live?.isFile() && live.size >= this.#maxBytes) await rename(this.path, this.rotatedPath);
    } finally {
      await unlink(lockPath).catch(() => {});
    }
  }

  async #dropHandle(): Promise<void> {
    const handle = this.#handle;
    this.#handle = undefined;
    await handle?.close().catch(() => {});
  }

  #fail(error: unknown): void {
    if (this.#reported) return;
    this.#reported = true;
    const { code, message } = error as NodeJS.ErrnoException;
    if (error instanceof UnsafeLogError) this.#report(`refusing to write the decisions log ${this.path}: ${message}; decisions go on, unrecorded`);
    else this.#report(`cannot write the decisions log ${this.path} (${code ?? message}); decisions go on, unrecorded`);
  }

  /**
   * At exit, lines that never reached the disk get one synchronous write: a hook process, which ends
   * right after answering, writes its record here, with no round trip through libuv's threads. Not when
   * this log was already writing: then the disk is slow or stuck, and waiting on it would hold the
   * process, so they are left. Opened with O_NONBLOCK, so a FIFO cannot hold it either.
   */
  writeLeftoversSync(): void {
    if (this.#pumping !== undefined || this.#closed) return;
    this.#exiting = true;
    this.beforeExit?.();
    const text = this.#queue.join("");
    this.#queue = [];
    if (text === "") return;
    try {
      const dir = dirname(this.path);
      const fd = openLogSync(this.path);
      if (basename(dir) === ".toolgate") ignoreErrors(() => writeFileSync(join(dir, ".gitignore"), gitignore, { flag: "wx", mode: logFileMode }));
      try {
        writeSync(fd, text);
      } finally {
        closeSync(fd);
      }
    } catch (error) {
      // stderr is synchronous on a pipe or a file: the one report still gets out at exit.
      this.#fail(error);
    }
  }
}

// The project's own folder is ignored by git as a whole: nobody commits the log by accident.
const gitignore = "*\n";

function ignoreErrors(action: () => void): void {
  try {
    action();
  } catch {
    // Best effort: the log itself does not depend on it.
  }
}

const openLogs = new Set<DecisionLog>();

// One exit listener for every log of the process, however many hosts come and go.
function watchExit(log: DecisionLog): void {
  if (openLogs.size === 0 && !exitWatched) {
    exitWatched = true;
    process.on("exit", () => {
      for (const log of openLogs) log.writeLeftoversSync();
    });
  }
  openLogs.add(log);
}
let exitWatched = false;

/** `decisions.jsonl` → `decisions.1.jsonl`, beside it. */
export function rotatedPathOf(path: string): string {
  const extension = extname(path);
  return `${path.slice(0, path.length - extension.length)}.1${extension}`;
}

async function takeLock(lockPath: string): Promise<boolean> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await (await open(lockPath, "wx")).close();
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const held = await lstat(lockPath).catch(() => undefined);
    if (held !== undefined && Date.now() - held.mtimeMs < staleLockMs) return false;
    await unlink(lockPath).catch(() => {});
  }
  return false;
}
