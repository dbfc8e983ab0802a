import { randomBytes } from "node:crypto";
import { closeSync, linkSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";

export interface LockOptions {
  /** Give up (and fail closed) after this long. @default 5000 */
  timeoutMs?: number;
  /** A lock older than this is taken over even if its holder still seems alive. @default 10000 */
  staleMs?: number;
}

/**
 * Runs `fn` while holding `lockPath`, an exclusive lock between processes on one machine: the file is
 * created with O_EXCL (`wx`), so exactly one process holds it. A lock whose holder died (its pid is gone)
 * or that is older than `staleMs` is taken over. `fn` is synchronous on purpose: the lock is never held
 * across an await, so a busy event loop cannot make other processes wait.
 */
export async function withFileLock<T>(lockPath: string, fn: () => T, options: LockOptions = {}): Promise<T> {
  const token = `${process.pid} ${randomBytes(6).toString("hex")}`;
  const deadline = Date.now() + (options.timeoutMs ?? 5000);
  for (let attempt = 0; ; attempt++) {
    if (tryCreate(lockPath, token)) break;
    recoverIfStale(lockPath, options.staleMs ?? 10_000);
    if (Date.now() > deadline) throw new Error(`the lock ${lockPath} stayed busy for ${options.timeoutMs ?? 5000} ms`);
    await sleep(Math.min(1 + attempt, 20) * Math.random());
  }
  try {
    return fn();
  } finally {
    release(lockPath, token);
  }
}

function tryCreate(lockPath: string, token: string): boolean {
  let fd: number;
  try {
    fd = openSync(lockPath, "wx");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
  try {
    writeSync(fd, token);
  } finally {
    closeSync(fd);
  }
  return true;
}

function recoverIfStale(lockPath: string, staleMs: number): void {
  const seen = readLock(lockPath);
  if (seen === undefined || !isStale(lockPath, seen, staleMs)) return;
  // Move it aside rather than unlink it: if another process took the stale lock over meanwhile and a
  // live holder now owns the path, what we moved is not what we judged stale, and we put it back.
  const aside = `${lockPath}.${process.pid}.${randomBytes(4).toString("hex")}.stale`;
  try {
    renameSync(lockPath, aside);
  } catch {
    return;
  }
  if (readLock(aside) !== seen) ignoreErrors(() => linkSync(aside, lockPath));
  ignoreErrors(() => unlinkSync(aside));
}

function isStale(lockPath: string, token: string, staleMs: number): boolean {
  const pid = Number(token.split(" ", 1)[0]);
  if (Number.isInteger(pid) && pid > 0 && !isAlive(pid)) return true;
  try {
    return Date.now() - statSync(lockPath).mtimeMs > staleMs;
  } catch {
    return false;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function readLock(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

function release(lockPath: string, token: string): void {
  // Only our own lock: if it was taken over as stale, the path is someone else's now.
  if (readLock(lockPath) === token) ignoreErrors(() => unlinkSync(lockPath));
}

function ignoreErrors(fn: () => void): void {
  try {
    fn();
  } catch {
    // Best effort: the lock protocol stays correct without it.
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
