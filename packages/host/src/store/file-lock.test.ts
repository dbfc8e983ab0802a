import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { withFileLock } from "./file-lock.js";

let dir: string;
let lock: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "toolgate-lock-"));
  lock = join(dir, "ns.json.lock");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The pid of a process that has already exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
  return Number(child.stdout);
}

describe("withFileLock", () => {
  it("takes over a lock whose holder died, and leaves no lock behind", async () => {
    writeFileSync(lock, `${deadPid()} abcdef`);
    expect(await withFileLock(lock, () => "ran", { timeoutMs: 1000 })).toBe("ran");
    expect(existsSync(lock)).toBe(false);
  });

  it("waits for a live holder, and fails closed when it holds on past the timeout", async () => {
    writeFileSync(lock, `${process.pid} holder`);
    await expect(withFileLock(lock, () => "ran", { timeoutMs: 150 })).rejects.toThrow(`the lock ${lock} stayed busy for 150 ms`);
    expect(existsSync(lock)).toBe(true); // someone else's lock is never removed
  });

  it("takes over a lock older than staleMs even if its pid is alive (a reused pid)", async () => {
    writeFileSync(lock, `${process.pid} ancient`);
    const past = new Date(Date.now() - 60_000);
    utimesSync(lock, past, past);
    expect(await withFileLock(lock, () => "ran", { timeoutMs: 1000, staleMs: 10_000 })).toBe("ran");
  });

  it("releases the lock when the work throws", async () => {
    await expect(
      withFileLock(lock, () => {
        throw new Error("inside");
      }),
    ).rejects.toThrow("inside");
    expect(existsSync(lock)).toBe(false);
  });
});
