import { createHost, isToolgateError, type Host, type HostOptions, type Plugin, type ToolCall } from "@toolgate/host";
import { afterEach, describe, expect, it } from "vitest";
import { recordEvents } from "../helpers/recorders.js";

// close() is a hard stop: every call not yet running ends blocked, naming the close, and no tool starts
// after close() is called, whatever a hook or the approver answers later.

const hosts: Host[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});

const ran: string[] = [];
const tools = { act: { execute: (_args: Record<string, unknown>, ctx: { call: ToolCall }) => (ran.push(ctx.call.id), "acted") } };
const call: ToolCall = { id: "c1", name: "act", args: {} };

async function hostWith(plugins: Plugin[], options: HostOptions = {}): Promise<Host> {
  ran.length = 0;
  const host = await createHost({ pluginsDir: false, configFile: false, logger: false, tools, plugins, hookTimeoutMs: 60_000, ...options });
  hosts.push(host);
  return host;
}

/** A hook that waits until it is aborted, then answers "allow": a close must not turn that into a run. */
const allowsWhenAborted: Plugin = {
  name: "slow",
  hooks: {
    pre_tool_call: (_call, ctx) => new Promise((resolve) => ctx.signal.addEventListener("abort", () => resolve({ action: "allow" }))),
  },
};
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe("host.close()", () => {
  it.each(["block", "allow"] as const)(
    "with onHookError %s: a call still being decided ends blocked, naming the close, and its tool never runs",
    async (onHookError) => {
      const host = await hostWith([allowsWhenAborted], { onHookError });
      const pending = host.callTool(call);
      await tick();
      await host.close();
      const result = await pending;
      expect(result.status).toBe("blocked");
      expect(result.content).toContain("host.close()");
      await tick();
      expect(ran).toEqual([]);
    },
  );

  it("a call waiting for onAsk ends blocked without waiting for it, and a late approval runs nothing", async () => {
    let approve: (answer: boolean) => void = () => {};
    const host = await hostWith([{ name: "asker", hooks: { pre_tool_call: () => ({ action: "ask", message: "may I?" }) } }], {
      onAsk: () => new Promise<boolean>((resolve) => (approve = resolve)),
    });
    const pending = host.callTool(call);
    await tick();
    await host.close();
    const result = await pending;
    expect(result.status).toBe("blocked");
    expect(result.content).toContain("host.close()");
    approve(true);
    await tick();
    expect(ran).toEqual([]);
  });

  it.each(["block", "allow"] as const)("with onHookError %s: a batch in progress gives one blocked result per call not yet run", async (onHookError) => {
    const host = await hostWith([allowsWhenAborted], { onHookError });
    const events = recordEvents(host.events);
    const calls = ["b1", "b2", "b3"].map((id) => ({ ...call, id }));
    const pending = host.callTools(calls, { concurrency: 1 });
    await tick();
    await host.close();
    const results = await pending;
    expect(results.map((result) => [result.callId, result.status])).toEqual([
      ["b1", "blocked"],
      ["b2", "blocked"],
      ["b3", "blocked"],
    ]);
    await tick();
    expect(ran).toEqual([]);
    expect(events.filter((event) => event.type === "tool:end")).toHaveLength(3);
  });

  it("a checkToolCall still being decided resolves as blocked", async () => {
    const host = await hostWith([allowsWhenAborted]);
    const pending = host.checkToolCall(call);
    await tick();
    await host.close();
    expect(await pending).toMatchObject({ action: "block", message: expect.stringContaining("host.close()") });
  });

  it("a checked call cannot run on its remembered verdict after close", async () => {
    const host = await hostWith([]);
    await host.checkToolCall(call);
    await host.close();
    const error = await host.callTool(call, { skipPreToolCallHook: true }).catch((thrown: unknown) => thrown);
    expect(isToolgateError(error) && error.code).toBe("HOST_CLOSED");
    expect(ran).toEqual([]);
  });

  it("every entry rejects with HOST_CLOSED once closed, and close() is idempotent", async () => {
    const host = await hostWith([]);
    await Promise.all([host.close(), host.close()]);
    for (const attempt of [host.callTool(call), host.checkToolCall(call), host.callTools([call]), host.explainToolCall(call)]) {
      const error = await attempt.catch((thrown: unknown) => thrown);
      expect(isToolgateError(error) && error.code).toBe("HOST_CLOSED");
    }
  });

  it("on_session_end still runs (async, within its timeout) after the in-flight hooks are aborted", async () => {
    const ended: string[] = [];
    const host = await hostWith([allowsWhenAborted, { name: "goodbye", hooks: { on_session_end: async () => void (await tick(), ended.push("goodbye")) } }]);
    const pending = host.callTool(call);
    await tick();
    await host.close();
    expect(ended).toEqual(["goodbye"]);
    expect((await pending).status).toBe("blocked");
  });
});

describe("host.close() from inside a decision", () => {
  it.each(["sync", "async"] as const)("a %s hook that closes the host and then allows: the tool does not run", async (style) => {
    let host: Host | undefined;
    const closer: Plugin = {
      name: "closer",
      hooks: {
        pre_tool_call: style === "sync" ? () => (void host!.close(), { action: "allow" }) : async () => (await tick(), void host!.close(), { action: "allow" }),
      },
    };
    host = await hostWith([closer]);
    const result = await host.callTool(call);
    expect(result.status).toBe("blocked");
    expect(result.content).toContain("host.close()");
    expect(ran).toEqual([]);
  });

  it("an approver that closes the host and approves: the tool does not run", async () => {
    let host: Host | undefined;
    host = await hostWith([{ name: "asker", hooks: { pre_tool_call: () => ({ action: "ask", message: "ok?" }) } }], {
      onAsk: () => (void host!.close(), true),
    });
    expect((await host.callTool(call)).status).toBe("blocked");
    expect(ran).toEqual([]);
  });
});
