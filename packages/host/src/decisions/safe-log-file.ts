import { chmodSync, closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, type Stats } from "node:fs";
import { chmod, lstat, mkdir } from "node:fs/promises";
import { basename, dirname } from "node:path";

/**
 * O_APPEND: every write lands at the end, whole, whoever else appends. O_NONBLOCK: opening something
 * that would wait for a reader (a FIFO) fails at once instead of holding a libuv thread, which a
 * process joins at exit: a hook would never end. O_NOFOLLOW: a link planted where the log goes
 * (`ln -sf ~/.bashrc .toolgate/decisions.jsonl`) is not followed, so records never land in a file the
 * shell runs. (Windows has no O_NOFOLLOW; there the checks after opening still refuse a link's target.)
 */
export const appendFlags = constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND | constants.O_NONBLOCK | (constants.O_NOFOLLOW ?? 0);

/** The log and its folder are readable by their owner only: records name the commands agents ran. */
export const logFileMode = 0o600;
const folderMode = 0o700;

export class UnsafeLogError extends Error {}

const currentUid = typeof process.getuid === "function" ? process.getuid() : undefined;

/**
 * Creates the log's folder (0700) if it is missing, and refuses one that is not a real folder: a link
 * (a linked `.toolgate` would carry every record elsewhere), or, for toolgate's own `.toolgate`, a
 * folder of another user or one others may write to (they could swap the log for a link between two writes).
 */
export async function prepareLogFolder(logPath: string): Promise<void> {
  const dir = dirname(logPath);
  await mkdir(dir, { recursive: true, mode: folderMode });
  if (checkLogFolder(dir, await lstat(dir))) await chmod(dir, folderMode);
}

/** `prepareLogFolder` for the one synchronous write at exit. */
function prepareLogFolderSync(logPath: string): void {
  const dir = dirname(logPath);
  mkdirSync(dir, { recursive: true, mode: folderMode });
  if (checkLogFolder(dir, lstatSync(dir))) chmodSync(dir, folderMode);
}

/** Throws for a folder the log must not go in; true when it is toolgate's own and others may read it (to be made 0700). */
function checkLogFolder(dir: string, stats: Stats): boolean {
  if (stats.isSymbolicLink()) throw new UnsafeLogError(`its folder ${dir} is a symbolic link`);
  if (!stats.isDirectory()) throw new UnsafeLogError(`${dir} is not a folder`);
  if (basename(dir) !== ".toolgate") return false;
  if (currentUid !== undefined && stats.uid !== currentUid) throw new UnsafeLogError(`its folder ${dir} belongs to another user (uid ${stats.uid})`);
  // Made by an older toolgate, readable by everyone: from now on by its owner only.
  return (stats.mode & 0o077) !== 0;
}

/** Refuses an opened log that is not a plain file of this user with one name (a hard link to `~/.bashrc` is two). */
export function checkOpenedLog(stats: Stats, logPath: string): void {
  if (!stats.isFile()) throw new UnsafeLogError(`${logPath} is not a regular file`);
  if (stats.nlink > 1) throw new UnsafeLogError(`${logPath} has ${stats.nlink} names (a hard link to another file)`);
  if (currentUid !== undefined && stats.uid !== currentUid) throw new UnsafeLogError(`${logPath} belongs to another user (uid ${stats.uid})`);
}

/** The one synchronous open, at exit: the same checks as the asynchronous path. */
export function openLogSync(logPath: string): number {
  prepareLogFolderSync(logPath);
  const fd = openWithoutFollowing(logPath);
  try {
    const stats = fstatSync(fd);
    checkOpenedLog(stats, logPath);
    if ((stats.mode & 0o077) !== 0) chmodSync(logPath, logFileMode);
    return fd;
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

function openWithoutFollowing(logPath: string): number {
  try {
    return openSync(logPath, appendFlags, logFileMode);
  } catch (error) {
    throw describeOpenError(error, logPath);
  }
}

/** ELOOP from O_NOFOLLOW means the log itself is a link: said in words. */
export function describeOpenError(error: unknown, logPath: string): unknown {
  return (error as NodeJS.ErrnoException).code === "ELOOP" ? new UnsafeLogError(`${logPath} is a symbolic link`) : error;
}
