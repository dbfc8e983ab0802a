// The framework adapters as a user gets them: the adapters, the host and a plugin packed and published
// to a local registry, installed with plain npm in a fresh project next to the frameworks from the
// registry, each README example (a scripted model in place of a real one) compiled under strict and run:
// `rm -rf /` never runs and the plugin's reason reaches the model. The Claude Agent SDK's example runs
// its real query(), which starts the Claude Code binary npm installed with it (a platform package of
// about 180 MB), against a fake Anthropic Messages API on 127.0.0.1.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packPackage, publishablePackages, type PackedPackage } from "../../scripts/lib/workspace-packages.js";
import { fakeApiEnv, startFakeMessagesApi, type ToolResultSeen } from "../../packages/claude-agent-sdk/src/fixtures/fake-messages-api.js";
import { startLocalRegistry, type LocalRegistry } from "./local-registry.js";
import { machineRegistry, mustRun, runCommand } from "./npm.js";

const pluginName = "toolgate-plugin-block-dangerous-shell";
const published = [
  "@toolgate/plugin-sdk",
  "@toolgate/shell",
  "@toolgate/host",
  pluginName,
  "@toolgate/openai-agents",
  "@toolgate/langchain",
  "@toolgate/claude-agent-sdk",
];

const openaiAgentsExample = `import { Agent, type AgentOutputItem, type Model, type ModelRequest, type ModelResponse, run, shellTool, Usage } from "@openai/agents";
import { createHost } from "@toolgate/host";
import { gateAgentTools } from "@toolgate/openai-agents";

const read: string[] = [];
const turns: AgentOutputItem[][] = [
  [{ type: "shell_call", callId: "sh_1", status: "completed", action: { commands: ["rm -rf /"] } }],
  [{ type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: "ok" }] }],
];
const model: Model = {
  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    read.push(JSON.stringify(request.input));
    return { usage: new Usage(), output: turns[read.length - 1] ?? [] };
  },
  async *getStreamedResponse() {},
};
const ran: string[] = [];
const shell = { run: async (action: { commands: string[] }) => (ran.push(...action.commands), { output: [] }) };

const host = await createHost({ plugins: ["${pluginName}"] });
const tools = gateAgentTools([shellTool({ shell })], host);
const agent = new Agent({ name: "ops", model, tools });
await run(agent, "Free some disk space");
await host.close();
console.log(JSON.stringify({ ran, read: read[1] }));
`;

const langchainExample = `import { createHost } from "@toolgate/host";
import { toolgateMiddleware } from "@toolgate/langchain";
import { createAgent, FakeToolCallingModel, tool, ToolMessage } from "langchain";
import { z } from "zod";

const ran: string[] = [];
const terminal = tool(async ({ command }) => (ran.push(command), "done"), { name: "terminal", description: "run", schema: z.object({ command: z.string() }) });
const model = new FakeToolCallingModel({ toolCalls: [[{ id: "c1", name: "terminal", args: { command: "rm -rf /" } }], []] });

const host = await createHost({ plugins: ["${pluginName}"] });
const agent = createAgent({ model, tools: [terminal], middleware: [toolgateMiddleware(host)] });
const result = await agent.invoke({ messages: [{ role: "user", content: "Free some disk space" }] });
await host.close();
const blocked = result.messages.find((message) => ToolMessage.isInstance(message));
console.log(JSON.stringify({ ran, status: blocked?.status, content: blocked?.content }));
`;

// The README example as it stands: the model behind ANTHROPIC_BASE_URL is the test's fake API.
const claudeAgentSdkExample = `import { query } from "@anthropic-ai/claude-agent-sdk";
import { toolgateHooks } from "@toolgate/claude-agent-sdk";
import { createHost } from "@toolgate/host";

const host = await createHost({ plugins: ["${pluginName}"] });
for await (const message of query({ prompt: "Free some disk space", options: { hooks: toolgateHooks(host) } })) {
  if (message.type === "result") console.log(JSON.stringify({ result: message.subtype }));
}
await host.close();
`;

describe("framework adapters, published and installed", () => {
  let work = "";
  let consumer = "";
  let registry: LocalRegistry | undefined;
  const packed: PackedPackage[] = [];
  const npmFlags = () => ["--registry", registry!.url, "--userconfig", registry!.npmrc, "--no-audit", "--no-fund"];
  const npm = (args: string[], cwd: string) => mustRun("npm", [...args, ...npmFlags()], { cwd, timeoutMs: 300_000 });

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), "toolgate-adapters-"));
    const packages = publishablePackages().filter((pkg) => published.includes(pkg.manifest.name));
    for (const pkg of packages) packed.push(await packPackage(pkg, join(work, "tarballs")));
    registry = await startLocalRegistry(join(work, "registry"), await machineRegistry());
    for (const tarball of packed) await npm(["publish", tarball.tarball, "--access", "public", "--tag", "latest"], work);
    consumer = join(work, "consumer");
    writeFiles(consumer, {
      "package.json": JSON.stringify({ name: "toolgate-consumer", version: "1.0.0", private: true, type: "module" }),
      "tsconfig.json": JSON.stringify({
        compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, skipLibCheck: true, noEmit: true, types: [] },
      }),
      "openai-agents.mts": openaiAgentsExample,
      "langchain.mts": langchainExample,
      "claude-agent-sdk.mts": claudeAgentSdkExample,
    });
    await npm(
      [
        "install",
        "@toolgate/host",
        pluginName,
        "@toolgate/openai-agents",
        "@openai/agents",
        "@toolgate/langchain",
        "langchain",
        "@langchain/core",
        "@toolgate/claude-agent-sdk",
        // The release this repository tests against; npm adds its platform binary (an optional dependency).
        "@anthropic-ai/claude-agent-sdk@^0.3.331",
        "zod",
        "typescript@5.9",
        "tsx",
        "--loglevel",
        "error",
      ],
      consumer,
    );
    // Packing builds each package, and the frameworks are large: minutes on a loaded 2-core machine.
  }, 900_000);

  afterAll(async () => {
    await registry?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  }, 120_000);

  it("the examples compile under strict", async () => {
    const result = await runCommand(join(consumer, "node_modules", ".bin", "tsc"), ["-p", "."], { cwd: consumer });
    expect(result.code, result.stdout + result.stderr).toBe(0);
  }, 120_000);

  it("@toolgate/openai-agents: rm -rf / never runs and the model reads the plugin's reason", async () => {
    const result = await runCommand(join(consumer, "node_modules", ".bin", "tsx"), ["openai-agents.mts"], {
      cwd: consumer,
      env: { OPENAI_AGENTS_DISABLE_TRACING: "1" },
    });
    expect(result.code, result.stderr).toBe(0);
    const { ran, read } = JSON.parse(result.stdout.trim().split("\n").at(-1)!) as { ran: string[]; read: string };
    expect(ran).toEqual([]);
    expect(read).toContain('Tool call blocked by plugin \\"block-dangerous-shell\\"');
  }, 120_000);

  it("@toolgate/langchain: rm -rf / never runs and the model reads the plugin's reason", async () => {
    const result = await runCommand(join(consumer, "node_modules", ".bin", "tsx"), ["langchain.mts"], { cwd: consumer });
    expect(result.code, result.stderr).toBe(0);
    const { ran, status, content } = JSON.parse(result.stdout.trim().split("\n").at(-1)!) as { ran: string[]; status: string; content: string };
    expect(ran).toEqual([]);
    expect(status).toBe("error");
    expect(content).toContain('Tool call blocked by plugin "block-dangerous-shell"');
  }, 120_000);

  it("@toolgate/claude-agent-sdk: rm -rf / never runs and the model reads the plugin's reason", async () => {
    // Belt and braces around a real agent binary: the first \`rm\` on PATH only records that it ran.
    const stubs = join(work, "stub-bin");
    const ranMarker = join(work, "rm-ran");
    writeFiles(stubs, { rm: `#!/bin/sh\necho "$@" >> ${JSON.stringify(ranMarker)}\nexit 1\n` });
    chmodSync(join(stubs, "rm"), 0o755);
    let seen: ToolResultSeen[] = [];
    const api = await startFakeMessagesApi((results) => {
      seen = results;
      return results.length === 0 ? { tool: "Bash", input: { command: "rm -rf /", description: "free disk space" } } : { text: "not deleting /" };
    });
    try {
      const result = await runCommand(join(consumer, "node_modules", ".bin", "tsx"), ["claude-agent-sdk.mts"], {
        cwd: consumer,
        timeoutMs: 180_000,
        env: {
          PATH: `${stubs}:${process.env.PATH ?? "/usr/bin:/bin"}`,
          HOME: mkdtempSync(join(work, "home-")),
          ...fakeApiEnv(api.url),
        },
      });
      expect(result.code, result.stdout + result.stderr).toBe(0);
      expect(result.stdout).toContain('{"result":"success"}');
    } finally {
      await api.close();
    }
    expect(existsSync(ranMarker)).toBe(false);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ isError: true, text: expect.stringContaining('Tool call blocked by plugin "block-dangerous-shell"') });
  }, 240_000);
});

function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    const target = join(dir, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, content);
  }
}
