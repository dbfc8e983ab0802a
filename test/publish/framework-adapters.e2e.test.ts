// The framework adapters as a user gets them: the adapters, the host and a plugin packed and published
// to a local registry, installed with plain npm in a fresh project next to the frameworks from the
// registry, each README example (a scripted model in place of a real one) compiled under strict and run:
// `rm -rf /` never runs and the plugin's reason reaches the model.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packPackage, publishablePackages, type PackedPackage } from "../../scripts/lib/workspace-packages.js";
import { startLocalRegistry, type LocalRegistry } from "./local-registry.js";
import { machineRegistry, mustRun, runCommand } from "./npm.js";

const pluginName = "toolgate-plugin-block-dangerous-shell";
const published = ["@toolgate/plugin-sdk", "@toolgate/host", pluginName, "@toolgate/openai-agents", "@toolgate/langchain"];

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
        "zod",
        "typescript@5.9",
        "tsx",
        "--loglevel",
        "error",
      ],
      consumer,
    );
  }, 600_000);

  afterAll(async () => {
    await registry?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  }, 30_000);

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
});

function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    const target = join(dir, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, content);
  }
}
