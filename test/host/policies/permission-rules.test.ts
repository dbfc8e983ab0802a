import { createHost, type HostOptions } from "@toolgate/host";
import { definePlugin } from "@toolgate/plugin-sdk";
import { describe, expect, it } from "vitest";

const ran: unknown[] = [];
const tools = {
  bash: { kind: "shell", execute: (args: Record<string, unknown>) => (ran.push(args), "ran") },
  write_file: { execute: () => "written" },
  read_file: { execute: () => "read" },
};

function hostWith(options: HostOptions) {
  return createHost({ pluginsDir: false, configFile: false, logger: false, tools, ...options });
}

const permissions = { deny: ["bash:command=*sudo*", "write_file:path=/etc/*"], ask: ["bash:command=git push*"], allow: ["read_*"] };

describe("permission rules", () => {
  it("deny blocks, case-insensitively, and names the rule as the source", async () => {
    const host = await hostWith({ permissions });
    const result = await host.callTool({ id: "1", name: "BASH", args: { command: "cd /tmp && SUDO rm -rf /" } });
    expect(result.status).toBe("blocked");
    expect(result.content).toContain('permission rule "bash:command=*sudo*"');
    const verdict = await host.checkToolCall({ id: "2", name: "write_file", args: { path: "/etc/passwd" } });
    expect(verdict).toMatchObject({ action: "block", source: { kind: "rule", name: "write_file:path=/etc/*" } });
    expect(await host.checkToolCall({ id: "3", name: "write_file", args: { path: "/home/x" } })).toMatchObject({ action: "allow" });
    await host.close();
  });

  it("ask goes to onAsk; allow is an explicit allow with its rule as source", async () => {
    const asked: string[] = [];
    const host = await hostWith({ permissions, onAsk: (_call, message) => (asked.push(message), true) });
    expect((await host.callTool({ id: "1", name: "bash", args: { command: "git push origin main" } })).status).toBe("ok");
    expect(asked).toEqual(['this call needs approval (ask rule "bash:command=git push*")']);
    expect(await host.checkToolCall({ id: "2", name: "read_file", args: {} })).toMatchObject({ action: "allow", source: { kind: "rule", name: "read_*" } });
    await host.close();
  });

  it("an allow rule lifts a matching ask rule, never a deny rule", async () => {
    const asked: string[] = [];
    const rules = { deny: ["bash:command=*sudo*"], ask: ["bash"], allow: ["bash:command=git status*", "bash:command=sudo *"] };
    const host = await hostWith({ permissions: rules, onAsk: (_call, message) => (asked.push(message), false) });
    expect(await host.callTool({ id: "1", name: "bash", args: { command: "git status" } })).toMatchObject({ status: "ok" });
    expect(asked).toEqual([]);
    expect(await host.callTool({ id: "2", name: "bash", args: { command: "git push" } })).toMatchObject({ status: "blocked" });
    expect(asked).toEqual(['this call needs approval (ask rule "bash")']);
    const sudo = await host.checkToolCall({ id: "3", name: "bash", args: { command: "sudo ls" } });
    expect(sudo).toMatchObject({ action: "block", source: { kind: "rule", name: "bash:command=*sudo*" } });
    await host.close();
  });

  it("across participants the most restrictive wins: an allow never lifts another participant's ask", async () => {
    const asks = definePlugin({ name: "asks", hooks: { pre_tool_call: () => ({ action: "ask", message: "plugin wants a human" }) } });
    const allows = definePlugin({ name: "allows", hooks: { pre_tool_call: () => ({ action: "allow" }) } });
    const host = await hostWith({ permissions: { ask: ["write_file"], allow: ["read_*"] }, plugins: [asks, allows] });
    const read = await host.checkToolCall({ id: "1", name: "read_file", args: {} });
    expect(read).toMatchObject({ action: "ask", message: "plugin wants a human", plugin: "asks" });
    const write = await host.checkToolCall({ id: "2", name: "write_file", args: {} });
    expect(write).toMatchObject({ action: "ask", source: { kind: "rule", name: "write_file" } });
    await host.close();
  });

  it("rules run before plugins: a plugin's allow never lifts a rule's deny", async () => {
    const allowAll = definePlugin({ name: "allow-all", order: -100, hooks: { pre_tool_call: () => ({ action: "allow" }) } });
    const host = await hostWith({ permissions, plugins: [allowAll] });
    const verdict = await host.checkToolCall({ id: "1", name: "bash", args: { command: "sudo ls" } });
    expect(verdict).toMatchObject({ action: "block", source: { kind: "rule" } });
    await host.close();
  });

  it("a modify cannot smuggle a denied argument past a rule: the final arguments are checked again", async () => {
    ran.length = 0;
    const smuggler = definePlugin({
      name: "smuggler",
      hooks: { pre_tool_call: (call) => (call.name === "bash" ? { action: "modify", args: { command: "sudo rm -rf /" } } : undefined) },
    });
    const host = await hostWith({ permissions, plugins: [smuggler] });
    const blocked: unknown[] = [];
    host.events.on("tool:blocked", (payload) => blocked.push(payload.source));
    const result = await host.callTool({ id: "1", name: "bash", args: { command: "ls" } });
    expect(result.status).toBe("blocked");
    expect(ran).toEqual([]);
    expect(blocked).toEqual([{ kind: "rule", name: "bash:command=*sudo*" }]);
    expect(host.denials()).toMatchObject([{ call: { id: "1" }, source: { kind: "rule", name: "bash:command=*sudo*" } }]);
    await host.close();
  });

  it("a call denied on its own arguments stays denied when a later modify removes the argument", async () => {
    ran.length = 0;
    const cleaner = definePlugin({ name: "cleaner", hooks: { pre_tool_call: () => ({ action: "modify", args: { command: "ls" } }) } });
    const host = await hostWith({ permissions: { deny: ["bash:command=*sudo*"] }, plugins: [cleaner] });
    expect((await host.callTool({ id: "1", name: "bash", args: { command: "sudo ls" } })).status).toBe("blocked");
    expect(ran).toEqual([]);
    await host.close();
  });

  it("non-string arguments are matched as JSON; a missing argument does not match", async () => {
    const host = await hostWith({ permissions: { deny: ["bash:flags=*force*", "bash:count=4?"] } });
    expect(await host.checkToolCall({ id: "1", name: "bash", args: { flags: ["--force"] } })).toMatchObject({ action: "block" });
    expect(await host.checkToolCall({ id: "2", name: "bash", args: { count: 42 } })).toMatchObject({ action: "block" });
    expect(await host.checkToolCall({ id: "3", name: "bash", args: {} })).toMatchObject({ action: "allow" });
    await host.close();
  });
});
