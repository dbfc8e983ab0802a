import { randomBytes } from "node:crypto";
import { link, open, readFile, rename, stat, unlink } from "node:fs/promises";

export interface LockOptions {
  /** Give up (and fail closed) after this long. @default 5000 */
  timeoutMs?: number;
  /** A lock older than this is taken over even if its holder still seems alive. @default 10000 */
  staleMs?: number;
}

/**
 * Runs `fn` while holding `lockPath`, an exclusive lock between processes on one machine: the file is
 * created with O_EXCL (`wx`), so exactly one process holds it. A lock whose holder died (its pid is gone)
 * or that is older than `staleMs` is taken over; nothing is held for longer than one read and write.
 */
export async function withFileLock<T>(lockPath: string, fn: () => Promise<T>, options: LockOptions = {}): Promise<T> {
  const token = `${process.pid} ${randomBytes(6).toString("hex")}`;
  await acquire(lockPath, token, options.timeoutMs ?? 5000, options.staleMs ?? 10_000);
  try {
    return await fn();
  } finally {
    await release(lockPath, token);
  }
}

async function acquire(lockPath: string, token: string, timeoutMs: number, staleMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 0; ; attempt++) {
    if (await tryCreate(lockPath, token)) return;
    await recoverIfStale(lockPath, staleMs);
    if (Date.now() > deadline) throw new Error(`the lock ${lockPath} stayed busy for ${timeoutMs} ms`);
    await sleep(Math.min(1 + attempt, 20) * Math.random());
  }
}

async function tryCreate(lockPath: string, token: string): Promise<boolean> {
  try {
    const handle = await open(lockPath, "wx");
    await handle.writeFile(token);
    await handle.close();
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}

async function recoverIfStale(lockPath: string, staleMs: number): Promise<void> {
  const seen = await readLock(lockPath);
  if (seen === undefined || !(await isStale(lockPath, seen, staleMs))) return;
  // Move it aside rather than unlink it: if another process took the stale lock over meanwhile and a
  // live holder now owns the path, what we moved is not what we judged stale, and we put it back.
  const aside = `${lockPath}.${process.pid}.${randomBytes(4).toString("hex")}.stale`;
  try {
    await rename(lockPath, aside);
  } catch {
    return;
  }
  const moved = await readLock(aside);
  if (moved !== seen) await link(aside, lockPath).catch(() => {});
  await unlink(aside).catch(() => {});
}

async function isStale(lockPath: string, token: string, staleMs: number): Promise<boolean> {
  const pid = Number(token.split(" ", 1)[0]);
  if (Number.isInteger(pid) && pid > 0 && !isAlive(pid)) return true;
  const info = await stat(lockPath).catch(() => undefined);
  return info !== undefined && Date.now() - info.mtimeMs > staleMs;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function readLock(path: string): Promise<string | undefined> {
  return readFile(path, "utf8").catch(() => undefined);
}

async function release(lockPath: string, token: string): Promise<void> {
  // Only our own lock: if it was taken over as stale, the path is someone else's now.
  if ((await readLock(lockPath)) === token) await unlink(lockPath).catch(() => {});
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
