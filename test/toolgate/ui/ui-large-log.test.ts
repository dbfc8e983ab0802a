import { writeFileSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { request } from "node:http";
import { afterAll, describe, expect, it } from "vitest";
import { makeTempDir, removeTempDirs } from "../../helpers/cli-harness.js";
import { logOf, rotatedLogOf } from "../decisions/records.js";
import { startUi, type RunningUi } from "./ui-harness.js";

/**
 * Issue #25 point 4: `toolgate ui` starts on any log within the rotation limits (10 MiB live, 10 MiB
 * rotated) and serves it through its HTTP API: the real ui server in a child process, real files.
 */

const running: RunningUi[] = [];
afterAll(async () => {
  await Promise.all(running.map((ui) => ui.cli.stop()));
  removeTempDirs();
});

/** `bytes` worth of small records (the smallest make the most records per byte: the most arguments to a spread). */
function writeLog(path: string, bytes: number, first: number): number {
  const lines: string[] = [];
  let size = 0;
  let id = first;
  while (size < bytes) {
    // The fields a record must have, kept short, and a call id to tell them apart: some 170 bytes each.
    const record = { v: 1, time: "2026-01-27T10:00:00.000Z", surface: "s", session: "s", callId: `c${id++}`, tool: "B", kind: "f", verdict: "allow" };
    const line = `${JSON.stringify({ ...record, participants: [], argsDigest: "sha256:0", policy: "sha256:0", ms: 0 })}\n`;
    lines.push(line);
    size += line.length;
  }
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, lines.join(""));
  return id;
}

/** The first server-sent event of `/api/stream` (the backlog), then the connection is closed. */
function firstEvent(url: string, query: string): Promise<{ status: number; event: string; data: any }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(new URL(`api/stream?${query}`, url), (response) => {
      let text = "";
      response.on("data", (chunk: Buffer) => {
        text += chunk.toString();
        const end = text.indexOf("\n\n");
        if (end === -1) return;
        const block = text.slice(0, end);
        const event = /^event: (.*)$/m.exec(block)?.[1] ?? "";
        const data = JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? "null");
        response.destroy();
        resolve({ status: response.statusCode ?? 0, event, data });
      });
      response.on("error", reject);
    });
    outgoing.on("error", reject);
    outgoing.end();
  });
}

const MiB = 1024 * 1024;

describe("toolgate ui on a large log", () => {
  it.each([
    ["a 20 MiB live log (an old writer's, never rotated)", { live: 20 * MiB, rotated: 0 }],
    ["10 MiB rotated and 10 MiB live, the rotation limits", { live: 10 * MiB, rotated: 10 * MiB }],
    ["a 25 MiB live log", { live: 25 * MiB, rotated: 0 }],
  ])("%s: starts, and its API serves the newest records", { timeout: 120_000 }, async (_name, sizes) => {
    const dir = makeTempDir("repo", "ui-large-");
    let next = 1;
    if (sizes.rotated > 0) next = writeLog(rotatedLogOf(dir), sizes.rotated, next);
    const last = writeLog(logOf(dir), sizes.live, next) - 1;
    expect(last).toBeGreaterThan(100_000);
    const ui = await startUi(dir, 60_000);
    running.push(ui);
    const answer = await firstEvent(ui.url, "last=3");
    expect(answer.status).toBe(200);
    expect(answer.event).toBe("backlog");
    expect(answer.data.map((entry: { record: { callId: string } }) => entry.record.callId)).toEqual([`c${last - 2}`, `c${last - 1}`, `c${last}`]);
    const filtered = await firstEvent(ui.url, "last=2&verdict=allow");
    expect(filtered.data).toHaveLength(2);
    expect(ui.cli.child.exitCode).toBeNull();
    expect(ui.cli.stderr()).not.toMatch(/Maximum call stack|RangeError/);
  });
});
