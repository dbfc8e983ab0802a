// "Nothing is loaded when no SDK is registered", observed from outside: a real child process runs a host
// through allowed, blocked and checked calls with a module-resolution tracer (--import), and reports its
// CommonJS cache. The same run with the SDK registered is the control that the tracer sees OpenTelemetry.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { outputOf } from "../../helpers/child-output.js";
import { repoRoot } from "../../helpers/cli-harness.js";

const tsxLoader = pathToFileURL(join(repoRoot, "node_modules/tsx/dist/loader.mjs")).href;
const tracer = pathToFileURL(join(repoRoot, "test/fixtures/trace-imports/register.mjs")).href;
const script = join(repoRoot, "test/host/tracing/fixtures/calls.mts");
const scratch = mkdtempSync(join(tmpdir(), "toolgate-tracing-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Report {
  spans: number;
  required: string[];
  apiGlobals: string[];
  resolved: string[];
}

async function runCalls(withSdk: boolean): Promise<Report> {
  const trace = join(scratch, `resolved-${withSdk}.txt`);
  const env = { ...process.env, TOOLGATE_TRACE_IMPORTS: trace, TRACE_WITH_SDK: withSdk ? "1" : "0" };
  const { code, stdout, stderr } = await outputOf(spawn(process.execPath, ["--import", tsxLoader, "--import", tracer, script], { env }));
  expect(code, stderr).toBe(0);
  const resolved = readFileSync(trace, "utf8").split("\n").filter(Boolean);
  return { ...(JSON.parse(stdout) as Omit<Report, "resolved">), resolved };
}

const openTelemetry = (urls: string[]) => urls.filter((url) => url.includes("@opentelemetry"));

describe("without a registered SDK", () => {
  it("no OpenTelemetry module is resolved or required, and no API global is created", async () => {
    const report = await runCalls(false);
    expect(report.resolved.some((url) => url.includes("/packages/host/src/tracing/tool-span.ts"))).toBe(true);
    expect(openTelemetry(report.resolved)).toEqual([]);
    expect(report.required).toEqual([]);
    expect(report.apiGlobals).toEqual([]);
    expect(report.spans).toBe(0);
  });

  it("control: with the SDK registered the same calls give four spans, and the tracer sees the SDK load", async () => {
    const report = await runCalls(true);
    expect(report.spans).toBe(4);
    expect(openTelemetry(report.resolved).length).toBeGreaterThan(0);
    expect(report.apiGlobals).toEqual(["Symbol(opentelemetry.js.api.1)"]);
  });
});
