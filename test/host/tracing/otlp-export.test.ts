// docs/observability.md's recipe, end to end: `toolgate serve` started with NODE_OPTIONS="--import otel.mjs"
// (the preload the doc shows) sends its execute_tool spans over OTLP/HTTP to a collector, here a real
// HTTP server on 127.0.0.1 that keeps what it is sent.
import { spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir, removeTempDirs, repoRoot, writeFiles } from "../../helpers/cli-harness.js";
import { mainPath, parseAnswer, runHook, tsxLoader } from "../../helpers/hook-harness.js";
import { eventually, post } from "../../helpers/serve-harness.js";

interface OtlpValue {
  stringValue?: string;
}
interface OtlpSpan {
  name: string;
  attributes: { key: string; value: OtlpValue }[];
}
interface OtlpExport {
  resourceSpans: { resource: { attributes: { key: string; value: OtlpValue }[] }; scopeSpans: { scope: { name: string }; spans: OtlpSpan[] }[] }[];
}

const received: OtlpExport[] = [];
let collector: Server;
let collectorUrl: string;

beforeAll(async () => {
  collector = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks);
      const text = (request.headers["content-encoding"] === "gzip" ? gunzipSync(body) : body).toString();
      if (request.url === "/v1/traces") received.push(JSON.parse(text) as OtlpExport);
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, "127.0.0.1", resolve));
  collectorUrl = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => collector.close(resolve));
  removeTempDirs();
});

const attributesOf = (attributes: { key: string; value: OtlpValue }[]) => Object.fromEntries(attributes.map(({ key, value }) => [key, value.stringValue]));

function exportedSpans() {
  return received.flatMap((batch) =>
    batch.resourceSpans.flatMap(({ resource, scopeSpans }) =>
      scopeSpans.flatMap(({ scope, spans }) =>
        spans.map((span) => ({
          name: span.name,
          scope: scope.name,
          service: attributesOf(resource.attributes)["service.name"],
          attributes: attributesOf(span.attributes),
        })),
      ),
    ),
  );
}

/** The environment docs/observability.md gives a replica. */
function tracedEnv(service: string): Record<string, string> {
  const preload = pathToFileURL(join(repoRoot, "test/host/tracing/fixtures/otel.mjs")).href;
  return { NODE_OPTIONS: `--import ${preload}`, OTEL_EXPORTER_OTLP_ENDPOINT: collectorUrl, OTEL_SERVICE_NAME: service, OTEL_BSP_SCHEDULE_DELAY: "100" };
}

/** `toolgate serve --port 0` with the preload through NODE_OPTIONS, as a replica would run. */
function startTracedServe(dir: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const env = { ...process.env, ...tracedEnv("toolgate-replica-1") };
  const child = spawn(process.execPath, ["--import", tsxLoader, mainPath, "serve", "--port", "0", "--cwd", dir], { env, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const url = /listening on (\S+)/.exec(stdout)?.[1];
      if (url) resolve({ url, stop: () => new Promise((done) => (child.once("close", () => done()), child.kill("SIGTERM"))) });
    });
    child.on("close", (code) => reject(new Error(`toolgate serve exited with ${code}: ${stderr}`)));
  });
}

describe("toolgate serve with an OTLP preload", () => {
  it("sends one execute_tool span per decided call to the collector, under the service's name", async () => {
    const dir = makeTempDir("repo", "tracing-serve-");
    writeFiles(dir, { "toolgate.config.json": JSON.stringify({ permissions: { deny: ["Bash:command=rm *"] } }) });
    const served = await startTracedServe(dir);
    try {
      const allowed = await post(`${served.url}/v1/check`, { call: { id: "ok-1", name: "Bash", args: { command: "ls" } } });
      const blocked = await post(`${served.url}/v1/check`, { call: { id: "no-1", name: "Bash", args: { command: "rm -rf /" } } });
      expect([allowed.body.verdict.action, blocked.body.verdict.action]).toEqual(["allow", "block"]);
      await eventually(async () => exportedSpans().length >= 2);
    } finally {
      await served.stop();
    }
    const spans = Object.fromEntries(exportedSpans().map((span) => [span.attributes["gen_ai.tool.call.id"], span]));
    expect(spans["ok-1"]).toMatchObject({
      name: "execute_tool Bash",
      scope: "@toolgate/host",
      service: "toolgate-replica-1",
      attributes: { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "Bash", "toolgate.verdict": "allow" },
    });
    expect(spans["no-1"]?.attributes).toMatchObject({
      "toolgate.verdict": "block",
      "toolgate.source.kind": "rule",
      "toolgate.source.name": "Bash:command=rm *",
      "toolgate.outcome": "blocked",
    });
  });

  it("the hook command sends its span before its process exits", async () => {
    const dir = makeTempDir("repo", "tracing-hook-");
    writeFiles(dir, { "toolgate.config.json": JSON.stringify({ permissions: { deny: ["Bash:command=rm *"] } }) });
    const input = {
      session_id: "agent-session",
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "rm -rf /" },
      tool_use_id: "hook-1",
      cwd: dir,
    };
    const run = await runHook("claude-code", input, { cwd: dir, env: tracedEnv("toolgate-hook") });
    expect(parseAnswer(run)).toMatchObject({ hookSpecificOutput: { permissionDecision: "deny" } });
    await eventually(async () => exportedSpans().some((span) => span.attributes["gen_ai.tool.call.id"] === "hook-1"));
    expect(exportedSpans().find((span) => span.attributes["gen_ai.tool.call.id"] === "hook-1")).toMatchObject({
      service: "toolgate-hook",
      attributes: { "session.id": "agent-session", "toolgate.tool.kind": "shell", "toolgate.verdict": "block", "toolgate.source.kind": "rule" },
    });
  });
});
