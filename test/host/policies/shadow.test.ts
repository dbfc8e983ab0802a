// Shadow mode through the real gate: a plugin, a configured hook or a rule set with `shadow: true` is
// asked as usual, its answer lands in the decision record marked `shadow: true`, and the verdict is the
// one the call would have had without it. What the record holds is read from the `decision` event.
import { createHost, type DecisionParticipant, type DecisionRecord, type Host, type HostOptions, type Plugin } from "@toolgate/host";
import { shadowVerdict } from "@toolgate/plugin-sdk";
import { afterEach, describe, expect, it } from "vitest";

const hosts: Host[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});

const ran: string[] = [];
const tools = { write: { execute: (args: Record<string, unknown>) => (ran.push(String(args.path)), "written") } };

const blocks: Plugin = { name: "blocker", hooks: { pre_tool_call: () => ({ action: "block", message: "no writes today" }) } };
const asks: Plugin = { name: "asker", hooks: { pre_tool_call: () => ({ action: "ask", message: "sure?" }) } };
const throws: Plugin = {
  name: "thrower",
  hooks: {
    pre_tool_call: () => {
      throw new Error("policy crashed");
    },
  },
};
const hangs: Plugin = { name: "hanger", hooks: { pre_tool_call: () => new Promise<undefined>(() => {}) } };
const modifies: Plugin = { name: "rewriter", hooks: { pre_tool_call: () => ({ action: "modify", args: { path: "elsewhere.txt" } }) } };

async function hostWith(options: HostOptions): Promise<{ host: Host; records: DecisionRecord[] }> {
  ran.length = 0;
  const records: DecisionRecord[] = [];
  const host = await createHost({
    pluginsDir: false,
    configFile: false,
    logger: false,
    protectPolicy: "off",
    hookTimeoutMs: 50,
    tools,
    on: { decision: (record) => records.push(record) },
    ...options,
  });
  hosts.push(host);
  return { host, records };
}

const shadowed = (plugin: Plugin) => [plugin, {}, { shadow: true }] as const;
const brief = ({ kind, name, action, shadow }: DecisionParticipant) => ({ kind, name, action, ...(shadow ? { shadow } : {}) });

describe("a shadow plugin", () => {
  it("that blocks: the call runs, and the record lists it with shadow: true and action block", async () => {
    const { host, records } = await hostWith({ plugins: [shadowed(blocks)] });
    const result = await host.callTool({ id: "c1", name: "write", args: { path: "a.txt" } });
    expect(result.status).toBe("ok");
    expect(ran).toEqual(["a.txt"]);
    expect(records).toHaveLength(1);
    const [record] = records;
    expect(record!.verdict).toBe("allow");
    expect(record!.source).toBeUndefined();
    expect(record!.participants.map(brief)).toEqual([{ kind: "plugin", name: "blocker", action: "block", shadow: true }]);
    expect(record!.participants[0]!.message).toBe("no writes today");
    // The verdict it would have caused is derived from the record alone.
    expect(shadowVerdict(record!.verdict, record!.participants[0]!.action)).toBe("block");
  });

  it("beside an enforced plugin that blocks: the enforced block stands, and the shadow is recorded apart", async () => {
    const enforced: Plugin = { ...blocks, name: "enforced" };
    const { host, records } = await hostWith({ plugins: [shadowed(asks), enforced] });
    const verdict = await host.checkToolCall({ id: "c1", name: "write", args: { path: "a.txt" } });
    expect(verdict).toMatchObject({ action: "block", plugin: "enforced", message: "no writes today" });
    expect(records[0]!.participants.map(brief)).toEqual([
      { kind: "plugin", name: "asker", action: "ask", shadow: true },
      { kind: "plugin", name: "enforced", action: "block" },
    ]);
  });

  it("that asks: no question reaches onAsk, the call runs", async () => {
    const asked: string[] = [];
    const { host, records } = await hostWith({ plugins: [shadowed(asks)], onAsk: (call) => (asked.push(call.name), false) });
    expect((await host.callTool({ id: "c1", name: "write", args: { path: "a.txt" } })).status).toBe("ok");
    expect(asked).toEqual([]);
    expect(records[0]!.participants.map(brief)).toEqual([{ kind: "plugin", name: "asker", action: "ask", shadow: true }]);
  });

  it("that throws or times out: no deny under onHookError block, its failure is recorded", async () => {
    const { host, records } = await hostWith({ plugins: [shadowed(throws), shadowed(hangs)], onHookError: "block" });
    const result = await host.callTool({ id: "c1", name: "write", args: { path: "a.txt" } });
    expect(result.status).toBe("ok");
    expect(records[0]!.verdict).toBe("allow");
    expect(records[0]!.participants.map(brief)).toEqual([
      { kind: "plugin", name: "hanger", action: "timeout", shadow: true },
      { kind: "plugin", name: "thrower", action: "error", shadow: true },
    ]);
  });

  it("that throws under onHookError allow: recorded, and no warning that the call goes on (it would anyway)", async () => {
    const warnings: string[] = [];
    const logger = { debug() {}, info() {}, error() {}, warn: (message: string) => void warnings.push(message) };
    const { host, records } = await hostWith({ plugins: [shadowed(throws)], onHookError: "allow", logger });
    expect((await host.checkToolCall({ id: "c1", name: "write", args: { path: "a.txt" } })).action).toBe("allow");
    expect(records[0]!.participants.map(brief)).toEqual([{ kind: "plugin", name: "thrower", action: "error", shadow: true }]);
    expect(warnings.filter((warning) => warning.includes("the call goes on"))).toEqual([]);
  });

  it("that modifies: the tool runs on the arguments as the agent gave them", async () => {
    const { host, records } = await hostWith({ plugins: [shadowed(modifies)] });
    await host.callTool({ id: "c1", name: "write", args: { path: "a.txt" } });
    expect(ran).toEqual(["a.txt"]);
    expect(records[0]!.participants.map(brief)).toEqual([{ kind: "plugin", name: "rewriter", action: "modify", shadow: true }]);
  });

  it("explain shows the shadow plugin's answer, marked, and the verdict without it", async () => {
    const { host } = await hostWith({ plugins: [shadowed(blocks)] });
    const explanation = await host.explainToolCall({ id: "c1", name: "write", args: { path: "a.txt" } });
    expect(explanation.verdict.action).toBe("allow");
    expect(explanation.plugins).toEqual([{ plugin: "blocker", outcome: "block", message: "no writes today", shadow: true }]);
  });

  it("shadow: false is an enforced plugin, and a wrong value is a clear error", async () => {
    const { host } = await hostWith({ plugins: [[blocks, {}, { shadow: false }]] });
    expect((await host.checkToolCall({ id: "c1", name: "write", args: { path: "a.txt" } })).action).toBe("block");
    await expect(hostWith({ plugins: [[blocks, {}, { shadow: "yes" as never }]] })).rejects.toThrow(/shadow.*must be true or false/);
  });
});

describe("a shadow hook", () => {
  it("a configured CEL hook with shadow: true is recorded as shadow and does not block", async () => {
    const hook = {
      type: "cel" as const,
      shadow: true,
      rules: [{ expression: 'args.path.endsWith(".env")', action: "block" as const, message: "no env files" }],
    };
    const { host, records } = await hostWith({ hooks: { pre_tool_call: [hook] } });
    expect((await host.callTool({ id: "c1", name: "write", args: { path: ".env" } })).status).toBe("ok");
    expect(records[0]!.verdict).toBe("allow");
    expect(records[0]!.participants.map(brief)).toEqual([{ kind: "cel", name: expect.any(String) as string, action: "block", shadow: true }]);
  });

  it("a shadow command hook that fails: no deny", async () => {
    const hook = { command: `${JSON.stringify(process.execPath)} -e "process.exit(3)"`, timeout: 20, shadow: true };
    const { host, records } = await hostWith({ hooks: { pre_tool_call: [hook] } });
    expect((await host.checkToolCall({ id: "c1", name: "write", args: { path: "a.txt" } })).action).toBe("allow");
    expect(records[0]!.participants.map(brief)).toEqual([{ kind: "command", name: hook.command, action: "error", shadow: true }]);
  });

  it("rejects a shadow key that is no boolean, naming the entry", async () => {
    const hook = { command: "true", shadow: 1 as never };
    await expect(hostWith({ hooks: { pre_tool_call: [hook] } })).rejects.toThrow(/hooks\.pre_tool_call\[0\]\.shadow.*must be true or false/);
  });
});

describe("shadow rules", () => {
  it("permissions.shadow = { deny }: the shadow rule is checked and recorded, the enforced rules still decide", async () => {
    const { host, records } = await hostWith({ permissions: { allow: ["write:path=*.txt"], shadow: { deny: ["write"] } } });
    expect((await host.callTool({ id: "c1", name: "write", args: { path: "a.txt" } })).status).toBe("ok");
    expect(records[0]!.verdict).toBe("allow");
    expect(records[0]!.participants.map(brief)).toEqual([
      { kind: "rule", name: "write:path=*.txt", action: "allow" },
      { kind: "rule", name: "write", action: "block", shadow: true },
    ]);
  });

  it("permissions.shadow = true puts the whole set in shadow", async () => {
    const { host, records } = await hostWith({ permissions: { shadow: true, deny: ["write"], ask: ["read"] } });
    expect((await host.checkToolCall({ id: "c1", name: "write", args: { path: "a.txt" } })).action).toBe("allow");
    expect(records[0]!.participants.map(brief)).toEqual([{ kind: "rule", name: "write", action: "block", shadow: true }]);
  });

  it("a bad rule inside permissions.shadow is reported where it is", async () => {
    await expect(hostWith({ permissions: { shadow: { deny: [""] } } })).rejects.toThrow(/permissions\.shadow\.deny\[0\]/);
  });
});
