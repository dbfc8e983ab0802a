import { definePlugin, type PluginApi } from "@toolgate/plugin-sdk";
import { createTestHost, type TestHost, type TestHostOptions } from "@toolgate/host/testing";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import auditLog from "./index.js";

const blocker = definePlugin({
  name: "blocks-marked-calls",
  hooks: { pre_tool_call: (call) => (call.args["blockMe"] ? { action: "block", message: "marked calls are refused" } : undefined) },
});

let cwd: string;
let testHost: TestHost | undefined;

beforeEach(() => {
  cwd = mkdtempSync(join(tmpdir(), "toolgate-audit-log-"));
});

afterEach(async () => {
  await testHost?.close();
  testHost = undefined;
  rmSync(cwd, { recursive: true, force: true });
});

async function host(options: Record<string, unknown> = {}, extra: TestHostOptions = {}) {
  testHost = await createTestHost(auditLog, {
    options,
    tools: {
      search: { returns: "3 results" },
      fail: () => {
        throw new Error("boom");
      },
    },
    plugins: [blocker],
    session: { id: "session-1", user: "ada" },
    ...extra,
    host: { cwd, ...extra.host },
  });
  return testHost;
}

function lines(file = join(cwd, ".toolgate/audit.jsonl")): Record<string, unknown>[] {
  return readFileSync(file, "utf8")
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe("audit-log", () => {
  it("writes a decision and a result line for an allowed call", async () => {
    await (await host()).call("search", { q: "toolgate" }, { id: "call-1" });
    const [decision, result] = lines();
    expect(decision).toEqual({
      time: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      session: "session-1",
      callId: "call-1",
      tool: "search",
      event: "decision",
      action: "allow",
      args: { q: "toolgate" },
    });
    expect(result).toEqual({
      time: expect.any(String),
      session: "session-1",
      callId: "call-1",
      tool: "search",
      event: "result",
      status: "ok",
      contentLength: 9,
    });
  });

  it("writes a decision and a result line for a call another plugin blocks", async () => {
    await (await host()).call("search", { q: "x", blockMe: true }, { id: "call-2" });
    const [decision, result] = lines();
    expect(decision).toEqual({
      time: expect.any(String),
      session: "session-1",
      callId: "call-2",
      tool: "search",
      event: "decision",
      action: "block",
      plugin: "blocks-marked-calls",
      message: "marked calls are refused",
    });
    expect(result).toMatchObject({ callId: "call-2", event: "result", status: "blocked", blockedBy: "blocks-marked-calls" });
    expect(result!["contentLength"]).toBe('Tool call blocked by plugin "blocks-marked-calls": marked calls are refused'.length);
  });

  it("logs calls in the order they happen, across blocked, failing and unknown tools", async () => {
    const testHost = await host();
    await testHost.call("search", { q: 1 }, { id: "a" });
    await testHost.call("search", { blockMe: true }, { id: "b" });
    await testHost.call("fail", {}, { id: "c" });
    await testHost.call("no_such_tool", {}, { id: "d" });
    expect(lines().map((line) => [line["callId"], line["event"], line["action"] ?? line["status"]])).toEqual([
      ["a", "decision", "allow"],
      ["a", "result", "ok"],
      ["b", "decision", "block"],
      ["b", "result", "blocked"],
      ["c", "decision", "allow"],
      ["c", "result", "error"],
      ["d", "decision", "allow"],
      ["d", "result", "error"],
    ]);
  });

  it("records who allowed a call explicitly, and the arguments after modify", async () => {
    const approver = definePlugin({
      name: "approver",
      hooks: { pre_tool_call: () => ({ action: "allow", reason: "trusted tool" }) },
    });
    const rewriter = definePlugin({ name: "rewriter", hooks: { pre_tool_call: () => ({ action: "modify", args: { limit: 10 } }) } });
    await (await host({}, { plugins: [approver, rewriter] })).call("search", { q: "x" });
    expect(lines()[0]).toMatchObject({ action: "allow", plugin: "approver", message: "trusted tool", args: { q: "x", limit: 10 } });
  });

  it("never changes a decision: the same calls give the same results with and without it", async () => {
    const calls = [
      ["search", { q: 1 }],
      ["search", { blockMe: true }],
      ["fail", {}],
      ["no_such_tool", {}],
    ] as const;
    const withAudit = await host();
    const audited = [];
    for (const [name, args] of calls) audited.push((await withAudit.call(name, args)).result);
    await withAudit.close();
    const without = await createTestHost(blocker, {
      tools: {
        search: { returns: "3 results" },
        fail: () => {
          throw new Error("boom");
        },
      },
    });
    const plain = [];
    for (const [name, args] of calls) plain.push((await without.call(name, args)).result);
    await without.close();
    expect(audited).toEqual(plain);
    expect(withAudit.plugins.find((plugin) => plugin.name === "audit-log")?.status).toBe("loaded");
  });

  it("has no pre_tool_call hook at all", async () => {
    const plugin = await auditLog({}, { cwd, policyPaths: [], session: { id: "s" }, log: console, store: {} as PluginApi["store"], on: () => () => {} });
    expect(plugin.hooks?.pre_tool_call).toBeUndefined();
  });

  it("`file` is resolved against the host's cwd and its folder is created", async () => {
    await (await host({ file: "logs/deep/audit.jsonl" })).call("search", {});
    expect(lines(join(cwd, "logs/deep/audit.jsonl"))).toHaveLength(2);
    expect(existsSync(join(cwd, ".toolgate"))).toBe(false);
  });

  it("`file` may be absolute", async () => {
    const file = join(cwd, "abs", "audit.jsonl");
    await (await host({ file })).call("search", {});
    expect(lines(file)).toHaveLength(2);
  });

  it("appends to an existing file", async () => {
    await (await host()).call("search", {});
    await testHost!.close();
    await (await host()).call("search", {});
    expect(lines()).toHaveLength(4);
  });

  it("`includeArgs: false` leaves arguments out", async () => {
    await (await host({ includeArgs: false })).call("search", { token: "secret" });
    expect(lines()[0]).not.toHaveProperty("args");
    expect(readFileSync(join(cwd, ".toolgate/audit.jsonl"), "utf8")).not.toContain("secret");
  });

  it("still logs a call whose arguments JSON cannot hold", async () => {
    await (await host()).call("search", { big: 10n });
    expect(lines()[0]).toMatchObject({ event: "decision", args: expect.stringContaining("[not serializable") });
  });

  it("a failing write is reported once and never fails the call", async () => {
    const errors: string[] = [];
    const logger = { debug() {}, info() {}, warn() {}, error: (message: string) => errors.push(message) };
    mkdirSync(join(cwd, "audit.jsonl")); // a folder where the file should be: every append fails
    const testHost = await host({ file: "audit.jsonl" }, { host: { logger } });
    const first = await testHost.call("search", {});
    const second = await testHost.call("search", {});
    expect([first.result.status, second.result.status]).toEqual(["ok", "ok"]);
    expect(errors.filter((message) => message.includes("cannot append"))).toHaveLength(1);
  });

  describe("options are validated", () => {
    const cases: [options: Record<string, unknown>, message: string][] = [
      [{ file: 3 }, 'audit-log: option "file": file must be a path (a string) (got 3)'],
      [{ file: "" }, 'audit-log: option "file": file must not be empty'],
      [{ includeArgs: "no" }, 'audit-log: option "includeArgs": includeArgs must be true or false (got "no")'],
      [{ path: "x.jsonl" }, 'audit-log: option "path": is not an option of this plugin (file, includeArgs)'],
    ];
    it.each(cases)("%j", async (options, message) => {
      await expect(host(options)).rejects.toThrow(message);
    });

    it("reports a folder it cannot create", async () => {
      writeFileSync(join(cwd, "a-file"), "");
      await expect(host({ file: "a-file/logs/audit.jsonl" })).rejects.toThrow(
        `audit-log: option "file": cannot create the folder for ${join(cwd, "a-file/logs/audit.jsonl")}`,
      );
    });
  });
});
