import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createTempProject, type TempProject } from "../../helpers/temp-project.js";

// Another process's rotation, run at the moment this process takes the rotation lock: the interleaving
// "I saw the file full, then someone else rotated it before I got the lock", made certain instead of timed.
const beforeLock: { run?: (() => void) | undefined; taken: number } = { taken: 0 };
vi.mock("node:fs/promises", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:fs/promises")>();
  return {
    ...real,
    open: (async (path: string, flags?: string, mode?: number) => {
      if (typeof path === "string" && path.endsWith(".lock") && flags === "wx") {
        beforeLock.taken++;
        const run = beforeLock.run;
        beforeLock.run = undefined;
        run?.();
      }
      return real.open(path, flags, mode);
    }) as typeof real.open,
  };
});

const { DecisionLog, rotatedPathOf } = await import("../../../packages/host/src/decisions/decision-log.js");

const projects: TempProject[] = [];
afterEach(() => {
  for (const project of projects.splice(0)) project.remove();
});

describe("a rotation under the lock", () => {
  it("a process that finds the file already rotated when it gets the lock does not rotate a second time (the first rotated file stays)", async () => {
    const project = createTempProject();
    projects.push(project);
    const folder = join(project.dir, ".toolgate");
    mkdirSync(folder);
    const path = join(folder, "decisions.jsonl");
    const full = `${'{"line":"before the first rotation"}\n'.repeat(40)}`;
    writeFileSync(path, full);
    const log = new DecisionLog({ path, maxBytes: full.length, recheckMs: 0, report: () => {} });
    // The other process: renames the full file away and starts the next one, all before this one's lock.
    beforeLock.run = () => {
      renameSync(path, rotatedPathOf(path));
      writeFileSync(path, '{"line":"the other process, after its rotation"}\n');
    };
    log.append('{"line":"this process"}\n');
    await log.close();
    expect(beforeLock.run, "the lock was never taken: the test did not reach the rotation").toBeUndefined();
    expect(readFileSync(rotatedPathOf(path), "utf8")).toBe(full);
    expect(readFileSync(path, "utf8")).toBe('{"line":"the other process, after its rotation"}\n{"line":"this process"}\n');
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it("a full file whose rotation another process holds is written on, not tried again and again until the lock is stale", async () => {
    const project = createTempProject();
    projects.push(project);
    const folder = join(project.dir, ".toolgate");
    mkdirSync(folder);
    const path = join(folder, "decisions.jsonl");
    const full = `${'{"line":"full"}\n'.repeat(40)}`;
    writeFileSync(path, full);
    writeFileSync(`${path}.lock`, "");
    const log = new DecisionLog({ path, maxBytes: full.length, recheckMs: 0, report: () => {} });
    beforeLock.taken = 0;
    log.append('{"line":"this process"}\n');
    await log.close();
    expect(beforeLock.taken).toBe(1);
    expect(readFileSync(path, "utf8")).toBe(`${full}{"line":"this process"}\n`);
  });
});
