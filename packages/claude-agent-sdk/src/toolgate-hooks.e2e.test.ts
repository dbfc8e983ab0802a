import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { query, type CanUseTool, type SDKMessage } from "@anthropic-ai/claude-agent-sdk";
import { createHost, type DecisionRecord, type Host, type HostOptions, type Plugin } from "@toolgate/host";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { fakeApiEnv, startFakeMessagesApi, type ToolResultSeen, type Turn } from "./fixtures/fake-messages-api.js";
import { toolgateHooks } from "./index.js";

/**
 * The real Claude Agent SDK `query()`, which runs the Claude Code binary it ships, against a fake
 * Anthropic Messages API on 127.0.0.1; toolgate's hooks gate its Bash tool.
 */

const dirs: string[] = [];
const hosts: Host[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

// The deleted path never exists: were the hook ever to fail open, nothing is lost.
const rootDelete = "rm -rf /toolgate-e2e-never-exists";
const noRootDelete: Plugin = {
  name: "no-root-delete",
  hooks: {
    pre_tool_call(call) {
      if (call.kind === "shell" && /rm\s+-rf\s+\//.test(String(call.args.command))) return { action: "block", message: "refusing destructive root delete" };
      if (call.kind === "shell" && call.args.command === "fix") return { action: "modify", args: { command: "echo rewritten-by-toolgate" } };
    },
  },
};

async function runAgent(
  plugins: Plugin[],
  commands: string[],
  hostOptions: Pick<HostOptions, "onAsk"> = {},
  canUseTool?: CanUseTool,
): Promise<{ results: ToolResultSeen[]; finalText: string; messages: SDKMessage[]; post: string[]; records: DecisionRecord[] }> {
  const post: string[] = [];
  const observer: Plugin = {
    name: "observer",
    hooks: { post_tool_call: (call, result) => void post.push(`${call.name} ${String(call.args.command)} ${result.status}`) },
  };
  const host = await createHost({ pluginsDir: false, configFile: false, logger: false, plugins: [...plugins, observer], ...hostOptions });
  hosts.push(host);
  const records: DecisionRecord[] = [];
  host.events.on("decision", (record) => records.push(record));
  let finalText = "";
  let results: ToolResultSeen[] = [];
  const api = await startFakeMessagesApi((seen): Turn => {
    results = seen;
    const next = commands[seen.length];
    if (next !== undefined) return { tool: "Bash", input: { command: next, description: "run a command" } };
    finalText = `I got: ${seen.map((result) => result.text).join(" || ")}`;
    return { text: finalText };
  });
  const cwd = tempDir("toolgate-cas-");
  const messages: SDKMessage[] = [];
  try {
    for await (const message of query({
      prompt: "run the commands",
      options: {
        cwd,
        hooks: toolgateHooks(host),
        allowedTools: ["Bash"],
        maxTurns: commands.length + 2,
        settingSources: [],
        ...(canUseTool === undefined ? {} : { canUseTool }),
        env: {
          PATH: process.env.PATH ?? "/usr/bin:/bin",
          HOME: tempDir("toolgate-cas-home-"),
          ...fakeApiEnv(api.url),
        },
      },
    }))
      messages.push(message);
  } finally {
    await api.close();
  }
  return { results, finalText, messages, post, records };
}

// A real CLI under the SDK: its budget is the one the repository's real-client tests share (test/helpers/real-client.ts).
describe("the Claude Agent SDK's query(), gated by toolgateHooks(host)", { timeout: 120_000 }, () => {
  it("denies rm -rf / with the plugin's reason reaching the model, which then runs ls; post_tool_call sees ls only", async () => {
    const run = await runAgent([noRootDelete], [rootDelete, "echo listed"]);
    expect(run.results).toHaveLength(2);
    expect(run.results[0]).toMatchObject({ isError: true });
    expect(run.results[0]!.text).toContain('Tool call blocked by plugin "no-root-delete": refusing destructive root delete');
    expect(run.results[1]).toMatchObject({ isError: false });
    expect(run.results[1]!.text).toContain("listed");
    expect(run.finalText).toContain("refusing destructive root delete");
    expect(run.post).toEqual(["Bash echo listed ok"]);
    // One record per call, naming the adapter's surface.
    expect(run.records.map(({ surface, tool, kind, verdict, outcome }) => ({ surface, tool, kind, verdict, outcome }))).toEqual([
      { surface: "claude-agent-sdk", tool: "Bash", kind: "shell", verdict: "block", outcome: "blocked" },
      { surface: "claude-agent-sdk", tool: "Bash", kind: "shell", verdict: "allow", outcome: undefined },
    ]);
  });

  it("a modify reaches the tool through updatedInput", async () => {
    const run = await runAgent([noRootDelete], ["fix"]);
    expect(run.results[0]!.text).toContain("rewritten-by-toolgate");
    expect(run.post).toEqual(["Bash echo rewritten-by-toolgate ok"]);
  });

  const asker: Plugin = {
    name: "change-control",
    hooks: { pre_tool_call: (call) => (String(call.args.command).startsWith("echo deploy") ? { action: "ask", message: "deploys need a human" } : undefined) },
  };

  it.each([true, false])("an ask goes to the host's onAsk (approved: %s)", async (approved) => {
    const run = await runAgent([asker], ["echo deploy-now"], { onAsk: () => approved });
    if (approved) expect(run.results[0]).toMatchObject({ isError: false, text: expect.stringContaining("deploy-now") });
    else expect(run.results[0]).toMatchObject({ isError: true, text: expect.stringContaining("deploys need a human (not approved)") });
    expect(run.post).toEqual(approved ? ["Bash echo deploy-now ok"] : []);
  });

  it("without onAsk an ask becomes Claude's own permission prompt (canUseTool), even for an allowed tool", async () => {
    const asked: string[] = [];
    const canUseTool: CanUseTool = async (toolName, input) => {
      asked.push(`${toolName} ${String(input.command)}`);
      return { behavior: "allow", updatedInput: input };
    };
    const run = await runAgent([asker], ["echo deploy-now"], {}, canUseTool);
    expect(asked).toEqual(["Bash echo deploy-now"]);
    expect(run.results[0]).toMatchObject({ isError: false, text: expect.stringContaining("deploy-now") });
    const refused = await runAgent([asker], ["echo deploy-now"]);
    expect(refused.results[0]).toMatchObject({ isError: true });
    expect(refused.post).toEqual([]);
  });

  it("a plugin that throws fails closed: the call is denied naming the plugin", async () => {
    const broken: Plugin = {
      name: "broken",
      hooks: {
        pre_tool_call() {
          throw new Error("policy store unreachable");
        },
      },
    };
    const run = await runAgent([broken], ["echo hi"]);
    expect(run.results[0]).toMatchObject({ isError: true, text: expect.stringContaining('plugin "broken"') });
    expect(run.post).toEqual([]);
  });
});
