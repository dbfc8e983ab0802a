import { fileURLToPath } from "node:url";
import {
  Agent,
  type AgentInputItem,
  type AgentOutputItem,
  applyPatchTool,
  type Computer,
  computerTool,
  type Editor,
  run,
  setTracingDisabled,
  shellTool,
  tool,
  webSearchTool,
} from "@openai/agents";
import { blockMessage, createHost, type DecisionRecord, type Host, type HostOptions, type Plugin } from "@toolgate/host";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { gateAgentTools } from "./index.js";
import { outputFor, ScriptedModel, say } from "./__fixtures__/scripted-model.js";

const blockDangerousShell = fileURLToPath(new URL("../../../plugins/block-dangerous-shell", import.meta.url));

const hosts: Host[] = [];
async function hostWith(...plugins: (string | Plugin)[]): Promise<Host> {
  return hostWithOptions({}, ...plugins);
}
async function hostWithOptions(options: HostOptions, ...plugins: (string | Plugin)[]): Promise<Host> {
  const host = await createHost({ pluginsDir: false, configFile: false, logger: false, plugins, ...options });
  hosts.push(host);
  return host;
}

beforeAll(() => setTracingDisabled(true));
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});

/** Counts pre_tool_call per call id, to prove each call is checked exactly once. */
function counter(): Plugin & { seen: Map<string, number> } {
  const seen = new Map<string, number>();
  return {
    name: "counter",
    seen,
    hooks: {
      pre_tool_call(call) {
        seen.set(call.id, (seen.get(call.id) ?? 0) + 1);
      },
    },
  };
}

/** `text` as it appears inside the JSON of the output item `outputFor` returns. */
const asJsonText = (text: string) => JSON.stringify(text).slice(1, -1);

const shellCall = (callId: string, ...commands: string[]) => ({ type: "shell_call", callId, status: "completed", action: { commands } }) as AgentOutputItem;
const functionCall = (callId: string, name: string, args: object) =>
  ({ type: "function_call", callId, name, status: "completed", arguments: JSON.stringify(args) }) as AgentOutputItem;

describe("shell tool", () => {
  it("blocks rm -rf / with the plugin's reason, which the model reads before it changes course", async () => {
    const count = counter();
    const host = await hostWith(blockDangerousShell, count);
    const records: DecisionRecord[] = [];
    host.events.on("decision", (record) => records.push(record));
    const ran: string[][] = [];
    const shell = shellTool({
      shell: {
        async run(action) {
          ran.push(action.commands);
          return { output: action.commands.map((command) => ({ stdout: `ran ${command}`, stderr: "", outcome: { type: "exit" as const, exitCode: 0 } })) };
        },
      },
    });
    let readBlock: string | undefined;
    const model = new ScriptedModel([
      () => [shellCall("sh_1", "rm -rf /")],
      (input) => {
        readBlock = outputFor(input, "sh_1");
        return [shellCall("sh_2", "ls -la")];
      },
      (input) => [say(`listed: ${outputFor(input, "sh_2")}`)],
    ]);
    const agent = new Agent({ name: "ops", model, tools: gateAgentTools([shell], host) });

    const result = await run(agent, "clean up the disk");

    expect(ran).toEqual([["ls -la"]]);
    expect(readBlock).toContain('Tool call blocked by plugin \\"block-dangerous-shell\\"');
    expect(readBlock).toMatch(/rm -rf|root/i);
    expect(result.finalOutput).toContain("ran ls -la");
    expect(result.interruptions ?? []).toEqual([]);
    expect([...count.seen.values()]).toEqual([1, 1]);
    // One record per call, naming the adapter's surface.
    expect(records.map(({ surface, callId, verdict, source }) => ({ surface, callId, verdict, source }))).toEqual([
      { surface: "openai-agents", callId: "sh_1", verdict: "block", source: { kind: "plugin", name: "block-dangerous-shell" } },
      { surface: "openai-agents", callId: "sh_2", verdict: "allow", source: undefined },
    ]);
  });

  it("gates a streamed run the same way", async () => {
    const host = await hostWith(blockDangerousShell);
    const ran: string[][] = [];
    const shell = shellTool({ shell: { run: async (action) => (ran.push(action.commands), { output: [] }) } });
    let readBlock: string | undefined;
    const model = new ScriptedModel([
      () => [shellCall("sh_1", "rm -rf /")],
      (input) => {
        readBlock = outputFor(input, "sh_1");
        return [say("not deleting the root")];
      },
    ]);
    const result = await run(new Agent({ name: "ops", model, tools: gateAgentTools([shell], host) }), "clean up", { stream: true });
    await result.completed;
    expect(ran).toEqual([]);
    expect(readBlock).toContain('Tool call blocked by plugin \\"block-dangerous-shell\\"');
    expect(result.finalOutput).toBe("not deleting the root");
  });

  it("runs the shell with a plugin's modified command", async () => {
    const host = await hostWith({
      name: "dry-run",
      hooks: { pre_tool_call: (call) => (call.kind === "shell" ? { action: "modify", args: { command: `echo ${String(call.args.command)}` } } : undefined) },
    });
    const ran: string[][] = [];
    const shell = shellTool({ shell: { run: async (action) => (ran.push(action.commands), { output: [] }) } });
    const model = new ScriptedModel([() => [shellCall("sh_1", "make deploy")], () => [say("done")]]);
    await run(new Agent({ name: "ops", model, tools: gateAgentTools([shell], host) }), "deploy");
    expect(ran).toEqual([["echo make deploy"]]);
  });

  it("turns ask into the SDK's approval: nothing runs until a human approves", async () => {
    const host = await hostWith({
      name: "confirm-shell",
      hooks: { pre_tool_call: (call) => (call.kind === "shell" ? { action: "ask", message: "confirm shell" } : undefined) },
    });
    const ran: string[][] = [];
    const shell = shellTool({ shell: { run: async (action) => (ran.push(action.commands), { output: [] }) } });
    const model = new ScriptedModel([() => [shellCall("sh_1", "git push")], () => [say("pushed")]]);
    const agent = new Agent({ name: "ops", model, tools: gateAgentTools([shell], host) });

    const first = await run(agent, "push");
    expect(ran).toEqual([]);
    expect(first.interruptions).toHaveLength(1);
    first.state.approve(first.interruptions[0]!);
    const second = await run(agent, first.state);
    expect(ran).toEqual([["git push"]]);
    expect(second.finalOutput).toBe("pushed");
  });
  it("still blocks a call the SDK lets through without asking (a sticky alwaysApprove)", async () => {
    const confirmGit: Plugin = {
      name: "confirm-git",
      hooks: { pre_tool_call: (call) => (String(call.args.command).startsWith("git") ? { action: "ask", message: "confirm git" } : undefined) },
    };
    const host = await hostWith(blockDangerousShell, confirmGit);
    const ran: string[][] = [];
    const shell = shellTool({ shell: { run: async (action) => (ran.push(action.commands), { output: [] }) } });
    let readBlock: string | undefined;
    const model = new ScriptedModel([
      () => [shellCall("sh_1", "git push")],
      () => [shellCall("sh_2", "rm -rf /")],
      (input) => {
        readBlock = outputFor(input, "sh_2");
        return [say("stopped")];
      },
    ]);
    const agent = new Agent({ name: "ops", model, tools: gateAgentTools([shell], host) });
    const first = await run(agent, "push, then clean");
    first.state.approve(first.interruptions[0]!, { alwaysApprove: true });
    const second = await run(agent, first.state);
    expect(ran).toEqual([["git push"]]);
    expect(readBlock).toContain('Tool call blocked by plugin \\"block-dangerous-shell\\"');
    expect(second.finalOutput).toBe("stopped");
  });
});

describe("function tools", () => {
  const deleteFile = (deleted: string[]) =>
    tool({
      name: "delete_file",
      description: "delete a file",
      parameters: z.object({ path: z.string() }),
      execute: async ({ path }) => {
        deleted.push(path);
        return `deleted ${path}`;
      },
    });
  const protectEtc: Plugin = {
    name: "protect-etc",
    hooks: { pre_tool_call: (call) => (String(call.args.path).startsWith("/etc") ? { action: "block", message: "/etc is off limits" } : undefined) },
  };

  it("a blocked call never executes and the model reads the reason as the tool's output", async () => {
    const count = counter();
    const host = await hostWith(protectEtc, count);
    const deleted: string[] = [];
    let readBlock: string | undefined;
    const model = new ScriptedModel([
      () => [functionCall("c1", "delete_file", { path: "/etc/passwd" })],
      (input) => {
        readBlock = outputFor(input, "c1");
        return [functionCall("c2", "delete_file", { path: "/tmp/scratch" })];
      },
      () => [say("cleaned /tmp instead")],
    ]);
    const result = await run(new Agent({ name: "files", model, tools: gateAgentTools([deleteFile(deleted)], host) }), "free space");
    expect(deleted).toEqual(["/tmp/scratch"]);
    expect(readBlock).toContain('Tool call blocked by plugin \\"protect-etc\\": /etc is off limits');
    expect(result.finalOutput).toBe("cleaned /tmp instead");
    expect(count.seen).toEqual(
      new Map([
        ["c1", 1],
        ["c2", 1],
      ]),
    );
  });

  it("runs the tool with the modified arguments", async () => {
    const host = await hostWith({
      name: "sandbox",
      hooks: { pre_tool_call: (call) => ({ action: "modify", args: { path: `/sandbox${String(call.args.path)}` } }) },
    });
    const deleted: string[] = [];
    const model = new ScriptedModel([() => [functionCall("c1", "delete_file", { path: "/tmp/a" })], (input) => [say(String(outputFor(input, "c1")))]]);
    const result = await run(new Agent({ name: "files", model, tools: gateAgentTools([deleteFile(deleted)], host) }), "go");
    expect(deleted).toEqual(["/sandbox/tmp/a"]);
    expect(result.finalOutput).toContain("deleted /sandbox/tmp/a");
  });

  it("ask: a rejected call never runs and the model reads the SDK's rejection", async () => {
    const host = await hostWith({ name: "confirm", hooks: { pre_tool_call: () => ({ action: "ask", message: "really delete?" }) } });
    const deleted: string[] = [];
    let read: string | undefined;
    const model = new ScriptedModel([
      () => [functionCall("c1", "delete_file", { path: "/tmp/a" })],
      (input) => {
        read = outputFor(input, "c1");
        return [say("left it alone")];
      },
    ]);
    const agent = new Agent({ name: "files", model, tools: gateAgentTools([deleteFile(deleted)], host) });
    const first = await run(agent, "go");
    expect(first.interruptions).toHaveLength(1);
    first.state.reject(first.interruptions[0]!, { message: "the user said no" });
    const second = await run(agent, first.state);
    expect(deleted).toEqual([]);
    expect(read).toContain("the user said no");
    expect(second.finalOutput).toBe("left it alone");
  });
});

describe("ask with a host that has onAsk", () => {
  const confirm: Plugin = { name: "confirm", hooks: { pre_tool_call: () => ({ action: "ask", message: "really?" }) } };
  const approveOnly = (allowed: string) => async (call: { args: Record<string, unknown> }) => JSON.stringify(call.args).includes(allowed);

  it("function tools: the approver decides, no interruption; a refusal reaches the model as the host's block", async () => {
    const host = await hostWithOptions({ onAsk: approveOnly("/tmp/a") }, confirm);
    const deleted: string[] = [];
    let read: string | undefined;
    const remove = tool({
      name: "delete_file",
      description: "delete a file",
      parameters: z.object({ path: z.string() }),
      execute: async ({ path }) => (deleted.push(path), "ok"),
    });
    const model = new ScriptedModel([
      () => [functionCall("c1", "delete_file", { path: "/tmp/a" })],
      () => [functionCall("c2", "delete_file", { path: "/tmp/b" })],
      (input) => {
        read = outputFor(input, "c2");
        return [say("done")];
      },
    ]);
    const result = await run(new Agent({ name: "files", model, tools: gateAgentTools([remove], host) }), "go");
    expect(result.interruptions ?? []).toEqual([]);
    expect(deleted).toEqual(["/tmp/a"]);
    expect(read).toContain(asJsonText('Tool call blocked by plugin "confirm": really? (not approved)'));
  });

  it("shell: the approver decides where the SDK would have interrupted", async () => {
    const host = await hostWithOptions({ onAsk: approveOnly("ls") }, confirm);
    const ran: string[][] = [];
    const shell = shellTool({ shell: { run: async (action) => (ran.push(action.commands), { output: [] }) } });
    let read: string | undefined;
    const model = new ScriptedModel([
      () => [shellCall("sh_1", "ls")],
      () => [shellCall("sh_2", "git push")],
      (input) => {
        read = outputFor(input, "sh_2");
        return [say("done")];
      },
    ]);
    const result = await run(new Agent({ name: "ops", model, tools: gateAgentTools([shell], host) }), "go");
    expect(result.interruptions ?? []).toEqual([]);
    expect(ran).toEqual([["ls"]]);
    expect(read).toContain(asJsonText('Tool call blocked by plugin "confirm": really? (not approved)'));
  });

  it("the block text is the host's blockMessage, word for word", async () => {
    const host = await hostWith({ name: "no", hooks: { pre_tool_call: () => ({ action: "block", message: "not today" }) } });
    let read: string | undefined;
    const noop = tool({ name: "noop", description: "does nothing", parameters: z.object({}), execute: async () => "ran" });
    const model = new ScriptedModel([
      () => [functionCall("c1", "noop", {})],
      (input) => {
        read = outputFor(input, "c1");
        return [say("done")];
      },
    ]);
    await run(new Agent({ name: "x", model, tools: gateAgentTools([noop], host) }), "go");
    expect(read).toContain(asJsonText(blockMessage(await host.checkToolCall({ name: "noop", args: {} }))));
  });
});

describe("apply_patch tool", () => {
  it("a blocked operation never reaches the editor; the model reads the reason", async () => {
    const host = await hostWith({
      name: "protect-secrets",
      hooks: {
        pre_tool_call: (call) =>
          call.kind === "apply_patch" && String(call.args.path).includes(".env") ? { action: "block", message: "secrets are not edited by agents" } : undefined,
      },
    });
    const applied: string[] = [];
    const record = async (operation: { type: string; path: string }) => {
      applied.push(`${operation.type} ${operation.path}`);
      return { status: "completed" as const, output: "ok" };
    };
    const editor: Editor = { createFile: record, updateFile: record, deleteFile: record };
    let readBlock: string | undefined;
    const patch = (callId: string, path: string) =>
      ({ type: "apply_patch_call", callId, status: "completed", operation: { type: "delete_file", path } }) as AgentOutputItem;
    const model = new ScriptedModel([
      () => [patch("p1", ".env")],
      (input) => {
        readBlock = outputFor(input, "p1");
        return [patch("p2", "notes.txt")];
      },
      () => [say("deleted notes instead")],
    ]);
    const result = await run(new Agent({ name: "editor", model, tools: gateAgentTools([applyPatchTool({ editor })], host) }), "tidy");
    expect(applied).toEqual(["delete_file notes.txt"]);
    expect(readBlock).toContain('Tool call blocked by plugin \\"protect-secrets\\": secrets are not edited by agents');
    expect(result.finalOutput).toBe("deleted notes instead");
  });
});

describe("computer tool", () => {
  it("a blocked action is never performed", async () => {
    const host = await hostWith({
      name: "no-typing-passwords",
      hooks: { pre_tool_call: (call) => (call.kind === "computer" && call.args.type === "type" ? { action: "block", message: "no typing" } : undefined) },
    });
    const performed: string[] = [];
    const computer: Computer = {
      environment: "browser",
      dimensions: [800, 600],
      screenshot: async () => "iVBORw0KGgo=",
      click: async (x, y) => void performed.push(`click ${x},${y}`),
      doubleClick: async () => void performed.push("doubleClick"),
      scroll: async () => void performed.push("scroll"),
      type: async (text) => void performed.push(`type ${text}`),
      wait: async () => void performed.push("wait"),
      move: async () => void performed.push("move"),
      keypress: async () => void performed.push("keypress"),
      drag: async () => void performed.push("drag"),
    };
    const action = (callId: string, act: object) => ({ type: "computer_call", callId, status: "completed", action: act }) as AgentOutputItem;
    const model = new ScriptedModel([
      () => [action("k1", { type: "type", text: "hunter2" })],
      () => [action("k2", { type: "click", x: 10, y: 20, button: "left" })],
      () => [say("clicked instead")],
    ]);
    const result = await run(new Agent({ name: "browser", model, tools: gateAgentTools([computerTool({ computer })], host) }), "log in");
    expect(performed).toEqual(["click 10,20"]);
    expect(result.finalOutput).toBe("clicked instead");
  });
});

describe("tools it cannot gate", () => {
  it("refuses a hosted tool instead of letting it bypass the plugins", async () => {
    const host = await hostWith();
    expect(() => gateAgentTools([webSearchTool()], host)).toThrow(/tools\[0\].*hosted_tool.*cannot be gated/);
  });

  it("names the mistake when tools is not an array", async () => {
    const host = await hostWith();
    expect(() => gateAgentTools({ shell: 1 } as never, host)).toThrow("gateAgentTools: tools must be an array of @openai/agents tools, got object");
  });
});

export type { AgentInputItem };
