import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runHostProcess, type WorkerReport, type WorkerTask } from "./helpers/host-process.js";
import { findRedisServer, missingRedisReason, startRedisServer, type RedisServer } from "./helpers/redis-server.js";

// Each worker is a separate `node` process that creates its own host (through the public API) and
// calls at once: many calls per process, which real hook processes (one call each, ~0.5 s to start)
// could not put under the same load. The same limits through real `toolgate hook` and `toolgate serve`
// processes: cli-processes.test.ts.

const hasRedis = findRedisServer() !== undefined;
if (!hasRedis) console.warn(`\n*** test/host/store/across-processes.test.ts: the Redis cases are ${missingRedisReason}\n`);

let dir: string;
let redis: RedisServer | undefined;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "toolgate-processes-"));
  if (hasRedis) redis = await startRedisServer();
});
afterAll(async () => {
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
});

function total(reports: WorkerReport[]) {
  return reports.reduce((sum, report) => ({ ok: sum.ok + report.ok, blocked: sum.blocked + report.blocked, error: sum.error + report.error }), {
    ok: 0,
    blocked: 0,
    error: 0,
  });
}

/** `processes` workers on one store, each making `calls` calls at the same moment. */
async function runWorkers(processes: number, task: Omit<WorkerTask, "idPrefix" | "startAt">, ids: "distinct" | "shared" = "distinct") {
  const run = randomUUID();
  const startAt = Date.now() + 1500 + processes * 150; // after every process has started and loaded
  const tasks = Array.from({ length: processes }, (_, n) => ({ ...task, idPrefix: ids === "shared" ? run : `${run}-${n}`, startAt }));
  return Promise.all(tasks.map((each) => runHostProcess(each, dir)));
}

const stores: [name: string, setting: () => string][] = [["file", () => `file:${join(dir, "state")}`]];
if (hasRedis) stores.push(["redis", () => redis!.url]);

// Each test starts several processes that load TypeScript through tsx: up to 27 s each on a loaded
// 2-core machine, hence budgets of 180 s (a deadline for a hang, not a speed check).
describe.each(stores)("one limit across processes, on the %s store", (name, setting) => {
  const concurrent = name === "redis" ? { processes: 2, calls: 500, max: 100 } : { processes: 4, calls: 60, max: 50 };

  it(`${concurrent.processes} hosts × ${concurrent.calls} concurrent calls against rate-limit max ${concurrent.max}: exactly ${concurrent.max} run`, async () => {
    const { processes, calls, max } = concurrent;
    const reports = await runWorkers(processes, {
      store: setting(),
      plugin: "rate-limit",
      options: { max, windowMs: 600_000 },
      calls,
      session: { id: randomUUID() },
    });
    expect(total(reports)).toEqual({ ok: max, blocked: processes * calls - max, error: 0 });
    expect(reports.flatMap((report) => report.messages)[0]).toMatch(
      /rate limit: "work" may be called \d+ times per 10min; this was call \d+\. Retry in \d+(s| min)\./,
    );
  }, 180_000);

  it("one call per process (as `toolgate hook` runs): 8 processes against budget limit 3, exactly 3 run", async () => {
    const session = { id: randomUUID() };
    const reports = await runWorkers(8, { store: setting(), plugin: "budget", options: { limit: 3 }, calls: 1, session });
    expect(total(reports)).toEqual({ ok: 3, blocked: 5, error: 0 });
  }, 180_000);

  it("a call retried in another process (same call id) is never counted twice", async () => {
    const session = { id: randomUUID() };
    // Three processes each run the same 20 call ids: 20 distinct calls, all within the limit of 25.
    const retried = await runWorkers(3, { store: setting(), plugin: "budget", options: { limit: 25 }, calls: 20, session }, "shared");
    expect(total(retried)).toEqual({ ok: 60, blocked: 0, error: 0 });
    // Only 5 of the 25 are used up.
    const after = await runWorkers(1, { store: setting(), plugin: "budget", options: { limit: 25 }, calls: 10, session });
    expect(total(after)).toEqual({ ok: 5, blocked: 5, error: 0 });
  }, 180_000);
});
