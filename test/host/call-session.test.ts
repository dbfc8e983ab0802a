import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createHost, type DecisionRecord, type Host, type HostOptions, type Plugin, type PluginEntry, type SessionInfo, type ToolCall } from "@toolgate/host";
import { afterEach, describe, expect, it } from "vitest";
import budget from "../../plugins/budget/src/index.js";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const hosts: Host[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});

/** Every `ctx.session` a hook or tool was handed, by where it was seen. */
const seen: { where: string; session: SessionInfo }[] = [];
const witness: Plugin = {
  name: "witness",
  hooks: {
    pre_tool_call: (_call, ctx) => void seen.push({ where: "pre", session: ctx.session }),
    post_tool_call: (_call, _result, ctx) => void seen.push({ where: "post", session: ctx.session }),
  },
};
const tools = { act: { execute: (_args: unknown, ctx: { session: SessionInfo }) => (seen.push({ where: "tool", session: ctx.session }), "acted") } };

async function hostWith(plugins: PluginEntry[], options: HostOptions = {}): Promise<Host> {
  seen.length = 0;
  const host = await createHost({
    pluginsDir: false,
    configFile: false,
    logger: false,
    tools,
    plugins,
    session: { id: "host-session", user: "ada", team: "core" },
    ...options,
  });
  hosts.push(host);
  return host;
}

let next = 0;
const call = (): ToolCall => ({ id: `call-${++next}`, name: "act", args: { path: "a.txt" } });
const sessionIds = () => seen.map(({ where, session }) => `${where}:${session.id}`);

describe("a call that names its session (a host serving many agents)", () => {
  it("hands it to pre_tool_call, the tool and post_tool_call, over the host's own fields", async () => {
    const host = await hostWith([witness]);
    await host.callTool(call(), { session: { id: "agent-7" } });
    expect(sessionIds()).toEqual(["pre:agent-7", "tool:agent-7", "post:agent-7"]);
    expect(seen[0]!.session).toEqual({ id: "agent-7", user: "ada", team: "core" });
    expect(Object.isFrozen(seen[0]!.session)).toBe(true);
  });

  it("leaves the host's session to calls that name none, before and after one that did", async () => {
    const host = await hostWith([witness]);
    await host.callTool(call());
    await host.callTool(call(), { session: { id: "agent-7", user: "grace" } });
    await host.callTool(call());
    expect(sessionIds()).toEqual([
      "pre:host-session",
      "tool:host-session",
      "post:host-session",
      "pre:agent-7",
      "tool:agent-7",
      "post:agent-7",
      "pre:host-session",
      "tool:host-session",
      "post:host-session",
    ]);
    expect(seen[3]!.session.user).toBe("grace");
  });

  it("keeps concurrent calls of different sessions apart while their hooks wait", async () => {
    const order: string[] = [];
    const slow: Plugin = {
      name: "slow",
      hooks: {
        async pre_tool_call(_call, ctx) {
          order.push(`start ${ctx.session.id}`);
          await new Promise((resolve) => setTimeout(resolve, 20));
          order.push(`end ${ctx.session.id}`);
        },
      },
    };
    const host = await hostWith([slow]);
    await Promise.all([host.checkToolCall(call(), { session: { id: "a" } }), host.checkToolCall(call(), { session: { id: "b" } }), host.checkToolCall(call())]);
    expect(order.sort()).toEqual(["end a", "end b", "end host-session", "start a", "start b", "start host-session"]);
  });

  it("reaches checkToolCall, callTools, postToolCall and explainToolCall alike", async () => {
    const onlyAgent7: Plugin = {
      name: "only-agent-7",
      hooks: { pre_tool_call: (_call, ctx) => (ctx.session.id === "agent-7" ? undefined : { action: "block", message: `not for ${ctx.session.id}` }) },
    };
    const host = await hostWith([witness, onlyAgent7]);
    const session = { id: "agent-7" };
    expect((await host.checkToolCall(call(), { session })).action).toBe("allow");
    expect((await host.checkToolCall(call())).message).toBe("not for host-session");
    expect((await host.callTools([call(), call()], { session })).map((result) => result.status)).toEqual(["ok", "ok"]);
    expect((await host.explainToolCall(call(), { session })).verdict.action).toBe("allow");
    expect((await host.explainToolCall(call())).verdict.action).toBe("block");
    seen.length = 0;
    await host.postToolCall(call(), { callId: "x", name: "act", status: "ok", content: "done" }, { session });
    expect(sessionIds()).toEqual(["post:agent-7"]);
  });

  it("is the session of the call's decision record", async () => {
    const records: DecisionRecord[] = [];
    const host = await hostWith([witness], { on: { decision: (record) => records.push(record) } });
    await host.checkToolCall(call(), { session: { id: "agent-7" } });
    await host.callTool(call());
    expect(records.map((record) => record.session)).toEqual(["agent-7", "host-session"]);
  });

  it("counts a per-session budget per agent: each session gets its own limit", async () => {
    const host = await hostWith([[budget, { limit: 1 }]], { store: "memory" });
    const verdicts = [];
    for (const id of ["agent-1", "agent-2", "agent-1", "agent-2"]) verdicts.push((await host.checkToolCall(call(), { session: { id } })).action);
    expect(verdicts).toEqual(["allow", "allow", "block", "block"]);
  });

  it("counts per session in a worker-isolated plugin too", async () => {
    const rateLimit = join(repoRoot, "plugins/rate-limit");
    const host = await hostWith([[rateLimit, { max: 1, windowMs: 60_000 }, { isolation: "worker" }]], { store: "memory" });
    const statuses = [];
    for (const id of ["agent-1", "agent-2", "agent-1"]) statuses.push((await host.callTool(call(), { session: { id } })).status);
    expect(statuses).toEqual(["ok", "ok", "blocked"]);
  });

  it.each([
    [{ id: "" }, "the call's options are invalid: session.id must not be empty"],
    [{ id: 7 }, "the call's options are invalid: session.id must be a string"],
    [{ user: null }, "the call's options are invalid: session.user must be a string"],
    ["agent-7", "the call's options are invalid: session must be an object such as { id: string, user?: string }"],
  ])("refuses a malformed session %j, naming the field, and runs nothing", async (session, message) => {
    const host = await hostWith([witness]);
    await expect(host.callTool(call(), { session: session as never })).rejects.toMatchObject({ code: "INVALID_CALL", message });
    await expect(host.checkToolCall(call(), { session: session as never })).rejects.toMatchObject({ code: "INVALID_CALL", message });
    expect(seen).toEqual([]);
  });
});
