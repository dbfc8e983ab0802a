import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createHost, type DecisionRecord, type Host, type HostOptions } from "@toolgate/host";
import { afterEach, describe, expect, it } from "vitest";
import { createTempProject, type TempProject } from "../../helpers/temp-project.js";

const hosts: Host[] = [];
const projects: TempProject[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
  for (const project of projects.splice(0)) project.remove();
});

const guard = {
  name: "guard",
  version: "1.2.0",
  hooks: {
    pre_tool_call(call: { args: Record<string, unknown> }) {
      const command = String(call.args.command);
      if (command.startsWith("rm")) return { action: "block" as const, message: "no deleting" };
      if (command === "deploy") return { action: "ask" as const, message: "deploys need a human" };
      if (command === "make") return { action: "modify" as const, args: { command: "make -n" } };
      if (command === "boom") throw new Error("policy store unreachable");
      if (command === "slow") return new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 30));
      return undefined;
    },
  },
};

async function hostWith(options: HostOptions = {}): Promise<{ host: Host; records: DecisionRecord[] }> {
  const records: DecisionRecord[] = [];
  const host = await createHost({
    cwd: createTempProject().dir,
    configFile: false,
    pluginsDir: false,
    logger: false,
    plugins: [guard],
    tools: { bash: { execute: (args: Record<string, unknown>) => (args.command === "fail" ? Promise.reject(new Error("exit 1")) : "ok") } },
    on: { decision: (record) => records.push(record) },
    ...options,
  });
  hosts.push(host);
  return { host, records };
}

describe("one record per decided call", () => {
  it("names the verdict, who decided, each participant's answer and time, the outcome, the session and the policy", async () => {
    const { host, records } = await hostWith({ permissions: { deny: ["bash:command=*shutdown*"] }, session: { id: "s-1" } });
    await host.callTool({ id: "c1", name: "bash", args: { command: "rm -rf dist" }, kind: "shell" });
    await host.callTool({ id: "c2", name: "bash", args: { command: "ls" } });
    await host.callTool({ id: "c3", name: "bash", args: { command: "fail" } });
    await host.callTool({ id: "c4", name: "bash", args: { command: "sudo shutdown" } });
    await host.callTool({ id: "c5", name: "bash", args: { command: "slow" } });
    expect(records).toHaveLength(5);
    const [blocked, allowed, failed, denied, slow] = records as [DecisionRecord, DecisionRecord, DecisionRecord, DecisionRecord, DecisionRecord];
    expect(blocked).toEqual({
      v: 1,
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      surface: "library",
      session: "s-1",
      callId: "c1",
      tool: "bash",
      kind: "shell",
      summary: "rm -rf dist",
      verdict: "block",
      outcome: "blocked",
      source: { kind: "plugin", name: "guard" },
      participants: [{ kind: "plugin", name: "guard", action: "block", message: "no deleting", ms: expect.any(Number) }],
      argsDigest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
      policy: expect.stringMatching(/^sha256:[0-9a-f]{16}$/),
      ms: expect.any(Number),
    });
    expect(Object.keys(blocked)).toEqual([
      "v",
      "time",
      "surface",
      "session",
      "callId",
      "tool",
      "kind",
      "summary",
      "verdict",
      "outcome",
      "source",
      "participants",
      "argsDigest",
      "policy",
      "ms",
    ]);
    expect(allowed).toMatchObject({ verdict: "allow", outcome: "ok", kind: "function", participants: [{ name: "guard", action: "none" }] });
    expect(allowed.source).toBeUndefined();
    expect(failed).toMatchObject({ verdict: "allow", outcome: "error" });
    expect(denied).toMatchObject({
      verdict: "block",
      outcome: "blocked",
      source: { kind: "rule", name: "bash:command=*shutdown*" },
      participants: [
        { kind: "rule", name: "bash:command=*shutdown*", action: "block" },
        { kind: "plugin", name: "guard", action: "none" },
      ],
    });
    // An async hook's time runs until it settles.
    expect(slow.participants[0]!.ms).toBeGreaterThanOrEqual(25);
    expect(slow.ms).toBeGreaterThanOrEqual(slow.participants[0]!.ms);
    expect(new Set(records.map((record) => record.policy)).size).toBe(1);
  });

  it("an error, a modify and an ask read as such; checkToolCall records a block's outcome and leaves an allowed call's open", async () => {
    const { host, records } = await hostWith();
    await host.checkToolCall({ id: "e", name: "bash", args: { command: "boom" } });
    await host.checkToolCall({ id: "m", name: "bash", args: { command: "make" } });
    await host.checkToolCall({ id: "a", name: "bash", args: { command: "deploy" } });
    expect(
      records.map(({ callId, verdict, outcome, participants }) => ({ callId, verdict, outcome, participants: participants.map(({ ms, ...rest }) => rest) })),
    ).toEqual([
      {
        callId: "e",
        verdict: "block",
        outcome: "blocked",
        participants: [{ kind: "plugin", name: "guard", action: "error", message: expect.stringMatching(/pre_tool_call threw: policy store unreachable/) }],
      },
      { callId: "m", verdict: "allow", outcome: undefined, participants: [{ kind: "plugin", name: "guard", action: "modify" }] },
      { callId: "a", verdict: "ask", outcome: undefined, participants: [{ kind: "plugin", name: "guard", action: "ask", message: "deploys need a human" }] },
    ]);
  });

  it("one record for a checked call that then runs with skipPreToolCallHook", async () => {
    const { host, records } = await hostWith();
    await host.checkToolCall({ id: "c1", name: "bash", args: { command: "ls" } });
    await host.callTool({ id: "c1", name: "bash", args: { command: "ls" } }, { skipPreToolCallHook: true });
    expect(records).toHaveLength(1);
  });

  it("the surface comes from the host's options, else from each call's", async () => {
    const { host, records } = await hostWith({ surface: "my-app" });
    await host.callTool({ name: "bash", args: { command: "ls" } });
    await host.checkToolCall({ name: "bash", args: { command: "ls" } }, { surface: "ai-sdk" });
    await host.callTools([{ name: "bash", args: { command: "ls" } }], { surface: "langchain" });
    expect(records.map((record) => record.surface)).toEqual(["my-app", "ai-sdk", "langchain"]);
  });

  it("arguments: a digest of their canonical JSON by default, themselves with args: full", async () => {
    const digest = await hostWith();
    const full = await hostWith({ decisions: { args: "full" } });
    for (const { host } of [digest, full]) {
      await host.checkToolCall({ name: "bash", args: { command: "ls", cwd: "/tmp" } });
      await host.checkToolCall({ name: "bash", args: { cwd: "/tmp", command: "ls" } });
    }
    expect(digest.records[0]!.args).toBeUndefined();
    expect(digest.records[0]!.argsDigest).toBe(digest.records[1]!.argsDigest);
    expect(full.records[0]!.argsDigest).toBe(digest.records[0]!.argsDigest);
    expect(full.records[1]!.args).toEqual({ command: "ls", cwd: "/tmp" });
  });

  it("the policy digest changes with a plugin's options or a rule, not with the call", async () => {
    const policyOf = async (options: HostOptions) => {
      const { host, records } = await hostWith(options);
      await host.checkToolCall({ name: "bash", args: { command: "ls" } });
      return records[0]!.policy;
    };
    const base = await policyOf({});
    expect(await policyOf({})).toBe(base);
    expect(await policyOf({ plugins: [[() => guard, { strict: true }]] })).not.toBe(base);
    expect(await policyOf({ permissions: { ask: ["bash"] } })).not.toBe(base);
  });

  it("a plugin that failed to load: the record names it as who blocked", async () => {
    const { host, records } = await hostWith({ plugins: [guard, () => Promise.reject(new Error("bad options"))] });
    await host.callTool({ name: "bash", args: { command: "ls" } });
    expect(records[0]).toMatchObject({ verdict: "block", outcome: "blocked", source: { kind: "plugin" }, participants: [] });
  });
});

describe("where records go", () => {
  it("the library writes none unless configured; decisions.log resolves from cwd and gets a .gitignore in .toolgate", async () => {
    const silent = await hostWith();
    await silent.host.checkToolCall({ name: "bash", args: { command: "ls" } });
    await silent.host.close();
    const project = createTempProject();
    projects.push(project);
    expect(existsSync(join(project.dir, ".toolgate"))).toBe(false);

    const { host, records } = await hostWith({ cwd: project.dir, decisions: { log: ".toolgate/decisions.jsonl" } });
    await host.callTool({ name: "bash", args: { command: "rm x" } });
    await host.callTool({ name: "bash", args: { command: "ls" } });
    await host.close();
    const path = project.path(".toolgate/decisions.jsonl");
    const lines = await eventually(
      () => readLines(path),
      (found) => found.length === 2,
    );
    expect(lines).toEqual(records);
    expect(readFileSync(project.path(".toolgate/.gitignore"), "utf8")).toBe("*\n");
  });

  it("bad settings are refused with what and where", async () => {
    await expect(hostWith({ decisions: { log: 3 as never } })).rejects.toThrow(/createHost\(\): decisions\.log must be a path or false/);
    await expect(hostWith({ decisions: { args: "some" as never } })).rejects.toThrow(/decisions\.args must be "full" or "digest"/);
    await expect(hostWith({ decisions: { rotate: true } as never })).rejects.toThrow(/is not a decisions setting \(log, args\)/);
    await expect(hostWith({ surface: "" })).rejects.toThrow(/surface must not be empty/);
  });
});

function readLines(path: string): unknown[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line));
}

/** Records reach the disk after the decision: polled until `done`, for at most two seconds. */
async function eventually<T>(read: () => T, done: (value: T) => boolean): Promise<T> {
  const until = Date.now() + 2000;
  for (;;) {
    const value = read();
    if (done(value) || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
