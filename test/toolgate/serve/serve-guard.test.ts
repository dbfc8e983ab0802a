import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir, removeTempDirs, runCli, writeFiles } from "../../helpers/cli-harness.js";
import { eventually, post, rawRequest, startServe, type Served } from "../../helpers/serve-harness.js";

const blockEverything = `export default { name: "block", hooks: { pre_tool_call() { return { action: "block", message: "blocked by the late plugin" }; } } };`;

const servers: Served[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  removeTempDirs();
});

async function serve(args: string[] = [], files: Record<string, string> = {}): Promise<Served & { dir: string; port: number }> {
  const dir = makeTempDir("repo", "serve-guard-");
  writeFiles(dir, files);
  const served = await startServe(["--cwd", dir, ...args]);
  servers.push(served);
  return { ...served, dir, port: Number(new URL(served.url).port) };
}

const checkBody = JSON.stringify({ call: { id: "c1", name: "Bash", args: { command: "ls" }, kind: "shell" } });

/** A refusal: its status, and a JSON error body, never a verdict or an agent's answer. */
function expectRefused(answer: { status: number; body: any }, status: number, says: RegExp): void {
  expect(answer.status).toBe(status);
  expect(answer.body).toEqual({ error: expect.stringMatching(says) });
}

describe("toolgate serve refuses what a web page could send", () => {
  let served: Served & { port: number };
  let port: number;
  beforeAll(async () => {
    served = await serve();
    port = served.port;
  });
  const send = (headers: Record<string, string | undefined>, request: { method?: string; path?: string } = {}) =>
    rawRequest(served.url, { headers: { "content-type": "application/json", ...headers }, body: request.method === "GET" ? undefined : checkBody, ...request });

  it.each([
    ["127.0.0.1:{port}", 200],
    ["localhost:{port}", 200],
    ["[::1]:{port}", 200],
    ["LOCALHOST:{port}", 200],
    ["evil.com", 421],
    ["evil.com:{port}", 421],
    ["127.0.0.1.evil.com:{port}", 421],
    ["localhost.:{port}", 421],
    ["localhost.evil.com:{port}", 421],
    ["localhost", 421],
    ["127.0.0.1", 421],
    ["127.0.0.1:{other}", 421],
    ["localhost:{other}", 421],
    ["[::1]", 421],
    ["::1:{port}", 421],
    ["0.0.0.0:{port}", 421],
    ["127.0.0.2:{port}", 421],
    ["evil.com@127.0.0.1:{port}", 421],
    ["", 421],
  ])("Host %j: %i", async (host, status) => {
    const value = host.replace("{port}", String(port)).replace("{other}", String(port === 65535 ? 1 : port + 1));
    const answer = await send({ host: value });
    if (status === 200) expect(answer).toMatchObject({ status: 200, body: { verdict: { action: "allow" } } });
    else expectRefused(answer, status, /Host header/);
  });

  it("no Host header at all (HTTP/1.0 style): 421, and the health endpoint is guarded too", async () => {
    expectRefused(await send({ host: undefined }), 421, /Host header is missing/);
    expectRefused(await send({ host: "evil.com" }, { method: "GET", path: "/v1/health" }), 421, /Host header "evil\.com"/);
    expect((await send({}, { method: "GET", path: "/v1/health" })).status).toBe(200);
  });

  it.each([
    [undefined, 200],
    ["http://127.0.0.1:{port}", 200],
    ["http://localhost:{port}", 200],
    ["http://[::1]:{port}", 200],
    ["null", 403],
    ["http://evil.com", 403],
    ["https://evil.com", 403],
    ["http://127.0.0.1:{other}", 403],
    ["http://localhost:{other}", 403],
    ["https://localhost:{port}", 403],
    ["https://127.0.0.1:{port}", 403],
    ["http://localhost.:{port}", 403],
    ["http://127.0.0.1:{port}.evil.com", 403],
    ["http://127.0.0.1", 403],
    ["", 403],
  ])("Origin %j: %i", async (origin, status) => {
    const value = origin?.replace("{port}", String(port)).replace("{other}", String(port + 1));
    const answer = await send({ origin: value });
    if (status === 200) expect(answer).toMatchObject({ status: 200, body: { verdict: { action: "allow" } } });
    else expectRefused(answer, status, /cross-origin requests are refused/);
  });

  it.each([
    ["cross-site", 403],
    ["same-site", 403],
    ["same-origin", 200],
    ["none", 200],
  ])("Sec-Fetch-Site %j: %i", async (site, status) => {
    const answer = await send({ "sec-fetch-site": site });
    if (status === 200) expect(answer.status).toBe(200);
    else expectRefused(answer, status, /cross-site requests are refused/);
  });

  it.each([
    ["application/json", 200],
    ["application/json; charset=utf-8", 200],
    ["application/json;charset=utf-8", 200],
    ["Application/JSON; Charset=UTF-8", 200],
    ['application/json; charset="utf-8"', 200],
    [undefined, 415],
    ["", 415],
    ["text/plain", 415],
    ["text/plain;charset=UTF-8", 415],
    ["application/x-www-form-urlencoded", 415],
    ["multipart/form-data; boundary=x", 415],
    ["application/jsonx", 415],
    ["application/json-patch+json", 415],
    ["text/json", 415],
    ["application/json; charset=latin1", 415],
    ["application/json; boundary=x", 415],
    ["application/json, text/plain", 415],
  ])("Content-Type %j: %i", async (contentType, status) => {
    const answer = await send({ "content-type": contentType });
    if (status === 200) expect(answer).toMatchObject({ status: 200, body: { verdict: { action: "allow" } } });
    else expectRefused(answer, status, /Content-Type: application\/json/);
  });

  it("an agent's hook endpoint refuses too: a status and an error, never an answer that reads as a decision", async () => {
    const hook = JSON.stringify({ hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls" } });
    const answers = await Promise.all([
      rawRequest(served.url, { path: "/v1/hooks/claude-code", headers: { "content-type": "text/plain" }, body: hook }),
      rawRequest(served.url, { path: "/v1/hooks/claude-code", headers: { "content-type": "application/json", origin: "http://evil.com" }, body: hook }),
      rawRequest(served.url, { path: "/v1/hooks/claude-code", headers: { "content-type": "application/json", host: "evil.com" }, body: hook }),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([415, 403, 421]);
    for (const answer of answers) expect(Object.keys(answer.body)).toEqual(["error"]);
    const allowed = await post(`${served.url}/v1/hooks/claude-code`, hook);
    expect(allowed.status).toBe(200);
    expect(allowed.body).not.toHaveProperty("error");
  });
});

describe("toolgate serve at start", () => {
  it("answers to the address given with --host", async () => {
    const { url, port } = await serve(["--host", "127.0.0.2"]);
    expect(url).toBe(`http://127.0.0.2:${port}`);
    expect((await rawRequest(url, { headers: { "content-type": "application/json" }, body: checkBody })).status).toBe(200);
    expect((await rawRequest(url, { headers: { "content-type": "application/json", host: `localhost:${port}` }, body: checkBody })).status).toBe(200);
    expect((await rawRequest(url, { headers: { "content-type": "application/json", host: `127.0.0.3:${port}` }, body: checkBody })).status).toBe(421);
  });

  it("an empty token, from --token or TOOLGATE_SERVE_TOKEN, is an error", async () => {
    const [flag, env, blank] = await Promise.all([
      runCli(["serve", "--port", "0", "--token", ""]),
      runCli(["serve", "--port", "0"], { env: { TOOLGATE_SERVE_TOKEN: "" } }),
      runCli(["serve", "--port", "0", "--token", "  "]),
    ]);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain("--token is empty");
    expect(env.code).toBe(2);
    expect(env.stderr).toContain("TOOLGATE_SERVE_TOKEN is empty");
    expect(blank.code).toBe(2);
    expect(flag.stdout + env.stdout + blank.stdout).not.toContain("listening");
  });

  it("a port already taken: exits 1 at once with a message naming the port, no hang", async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
    const port = (holder.address() as { port: number }).port;
    try {
      const dir = makeTempDir("repo", "serve-guard-");
      writeFiles(dir, { "plugins/block.ts": blockEverything });
      const started = Date.now();
      const run = await runCli(["serve", "--port", String(port), "--cwd", dir]);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`port ${port} on 127.0.0.1 is already in use`);
      expect(run.stdout).not.toContain("listening");
      // A hang would never end; the bound leaves room for a loaded machine, where starting the CLI alone takes seconds.
      expect(Date.now() - started).toBeLessThan(45_000);
    } finally {
      holder.close();
    }
  });

  it("picks up a plugins/ folder created after it started, and one created again after it was removed", async () => {
    const served = await serve();
    const check = () => post(`${served.url}/v1/check`, { call: { id: "c1", name: "Bash", args: { command: "ls" } } });
    expect((await check()).body.verdict.action).toBe("allow");
    mkdirSync(join(served.dir, "plugins"));
    writeFileSync(join(served.dir, "plugins/block.ts"), blockEverything);
    await eventually(async () => (await check()).body.verdict.message === "blocked by the late plugin", 10_000);
    // Removed and created again: the new folder is the one watched.
    rmSync(join(served.dir, "plugins"), { recursive: true });
    await eventually(async () => (await check()).body.verdict.action === "allow", 10_000);
    mkdirSync(join(served.dir, "plugins"));
    writeFileSync(join(served.dir, "plugins/block.ts"), blockEverything.replace("late plugin", "second folder"));
    await eventually(async () => (await check()).body.verdict.message === "blocked by the second folder", 10_000);
  });
});
