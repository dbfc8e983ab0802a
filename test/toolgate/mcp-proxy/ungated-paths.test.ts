import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../helpers/cli-harness.js";
import { createTempProject, type TempProject } from "../../helpers/temp-project.js";
import { runProxyRaw, type RawRun } from "../../helpers/proxy-harness.js";

const lenientServerPath = join(repoRoot, "test/toolgate/mcp-proxy/fixtures/lenient-server.mjs");

/** Every call of "touch" is blocked: whatever reaches the server and runs, ran past the gate. */
const noTouching = `export default { name: "no-touching", hooks: { pre_tool_call(call) { if (call.name === "touch") return { action: "block", message: "no touching" }; } } };`;

let project: TempProject;
let http: ChildProcess;
let httpUrl: string;

beforeAll(async () => {
  project = createTempProject({ "plugins/no-touching.mjs": noTouching });
  http = spawn(process.execPath, [lenientServerPath, "--http"], { stdio: ["ignore", "pipe", "inherit"] });
  httpUrl = await new Promise<string>((resolve) => {
    let out = "";
    http.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const url = /listening on (\S+)/.exec(out)?.[1];
      if (url) resolve(url);
    });
  });
});

afterAll(() => {
  http?.kill();
  project?.remove();
});

const upstreams = {
  "a stdio upstream (the raw relay)": () => ["--", process.execPath, lenientServerPath],
  "an HTTP upstream (the SDK's server and client)": () => ["--url", httpUrl],
};

const touch = (marker: string) => ({ method: "tools/call", params: { name: "touch", arguments: { path: marker } } });

/** Sends `messages` (raw lines), then a `hello` call with id 99 whose answer ends the session. */
function session(upstream: string[], lines: string[]): Promise<RawRun & { answers: any[] }> {
  return runProxyRaw(
    project.dir,
    upstream,
    (send, writeLine) => {
      for (const line of lines) writeLine(line);
      send({ id: 99, method: "tools/call", params: { name: "hello", arguments: {} } });
    },
    // The initialize answer, the hello answer, and one more for a batch's error when there is one.
    lines.some((line) => line.startsWith("[")) && !upstream.includes("--url") ? 2 : 1,
  ).then((run) => ({
    ...run,
    answers: run.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line)),
  }));
}

describe.each(Object.entries(upstreams))("every tools/call is gated, through %s", (_name, upstream) => {
  it("a tools/call sent as a notification (no id) is dropped and reported on stderr, never forwarded", async () => {
    const marker = project.path(`notified-${Date.now()}`);
    const run = await session(upstream(), [JSON.stringify({ jsonrpc: "2.0", ...touch(marker) })]);
    expect(run.code).toBe(0);
    expect(run.answers.at(-1)).toMatchObject({ id: 99, result: { content: [{ type: "text", text: "ran hello" }] } });
    expect(existsSync(marker)).toBe(false);
    expect(run.stderr).toContain('dropped a tools/call sent as a notification (no id) for tool "touch"');
    for (const answer of run.answers) expect(answer).toMatchObject({ jsonrpc: "2.0" });
  });

  it("a JSON-RPC batch never carries a tools/call past the gate", async () => {
    const marker = project.path(`batched-${Date.now()}`);
    const run = await session(upstream(), [
      JSON.stringify([
        { jsonrpc: "2.0", id: 7, ...touch(marker) },
        { jsonrpc: "2.0", ...touch(marker) },
      ]),
    ]);
    expect(run.code).toBe(0);
    expect(existsSync(marker)).toBe(false);
    expect(run.answers.at(-1)).toMatchObject({ id: 99, result: { content: [{ type: "text", text: "ran hello" }] } });
    expect(run.stderr).toMatch(/dropped a JSON-RPC batch|client connection:/);
  });

  it("the same call as a request is gated: blocked, and the server never sees it", async () => {
    const marker = project.path(`requested-${Date.now()}`);
    const run = await session(upstream(), [JSON.stringify({ jsonrpc: "2.0", id: 5, ...touch(marker) })]);
    expect(run.answers.find((answer) => answer.id === 5)).toMatchObject({
      result: { isError: true, content: [{ text: expect.stringContaining("no touching") }] },
    });
    expect(existsSync(marker)).toBe(false);
  });
});

/** Method names a loose server may read as tools/call, and others that are not the protocol's. */
const misspelledCalls = [
  "tools/call ",
  " tools/call",
  "Tools/Call",
  "TOOLS/CALL",
  "tools/call\u0000",
  "tools//call",
  "tools/call\n",
  "tools/\tcall",
  "tools/call\u200b",
];
const notMethods = [null, 42, true, ["tools/call"], { name: "tools/call" }];

describe.each(Object.entries(upstreams))("method names that are not exactly the protocol's are refused, through %s", (_name, upstream) => {
  it.each(misspelledCalls)("a request for %j: a JSON-RPC error, and the server never runs it", async (method) => {
    const marker = project.path(`misspelled-${Date.now()}-${Math.random().toString(36).slice(2)}`);
    const run = await session(upstream(), [
      JSON.stringify({ jsonrpc: "2.0", id: 5, method, params: { name: "touch", arguments: { path: marker } } }),
      JSON.stringify({ jsonrpc: "2.0", method, params: { name: "touch", arguments: { path: marker } } }),
    ]);
    expect(existsSync(marker)).toBe(false);
    expect(run.answers.find((answer) => answer.id === 5)).toMatchObject({ jsonrpc: "2.0", error: { code: -32601 } });
  });

  // The SDK's server (an HTTP upstream) drops these itself, reporting them on stderr: never relayed either.
  it.skipIf(upstream().includes("--url")).each(notMethods)("a request whose method is %j: a JSON-RPC error", async (method) => {
    const run = await session(upstream(), [JSON.stringify({ jsonrpc: "2.0", id: 5, method, params: {} })]);
    expect(run.answers.find((answer) => answer.id === 5)).toMatchObject({ jsonrpc: "2.0", error: { code: expect.any(Number) } });
    expect(run.answers.at(-1)).toMatchObject({ id: 99, result: { content: [{ type: "text", text: "ran hello" }] } });
  });
});

describe("a JSON-RPC batch through the raw relay", () => {
  it("each request in it is answered with an Invalid Request error", async () => {
    const marker = project.path(`batched-${Date.now()}`);
    const run = await session(upstreams["a stdio upstream (the raw relay)"](), [
      JSON.stringify([
        { jsonrpc: "2.0", id: 7, ...touch(marker) },
        { jsonrpc: "2.0", method: "notifications/progress" },
      ]),
    ]);
    expect(run.answers).toContainEqual({ jsonrpc: "2.0", id: 7, error: { code: -32600, message: expect.stringContaining("does not relay JSON-RPC batches") } });
    expect(run.stderr).toContain("dropped a JSON-RPC batch of 2 message(s) from the client");
  });
});
