import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createHost, isToolgateError } from "@toolgate/host";
import { afterAll, describe, expect, it, vi } from "vitest";
import { makeTempDir, removeTempDirs, writeFiles } from "../../helpers/cli-harness.js";
import { parseAnswer, runHook } from "../../helpers/hook-harness.js";
import { connectThroughProxy, filesystemServerPath } from "../../helpers/proxy-harness.js";
import { post, startServe, type Served } from "../../helpers/serve-harness.js";

// Each case starts real CLI processes (several seconds each on a busy machine).
vi.setConfig({ testTimeout: 90_000 });

const servers: Served[] = [];
afterAll(async () => {
  await Promise.all(servers.map((served) => served.stop()));
  removeTempDirs();
});

const config = JSON.stringify({ permissions: { allow: ["*"] } });

/** A project whose config allows every call by rule: only the built-in protection stands in the way. */
function project(files: Record<string, string> = {}): string {
  const dir = makeTempDir("repo", "policy-home-");
  writeFiles(dir, { "toolgate.config.json": config, "plugins/.keep": "", "src/index.ts": "export {};\n", ...files });
  return dir;
}

const claude = (cwd: string, tool: string, input: Record<string, unknown>) => ({
  hook_event_name: "PreToolUse",
  session_id: "s",
  transcript_path: "",
  cwd,
  tool_name: tool,
  tool_input: input,
  tool_use_id: "toolu_1",
});
const gemini = (cwd: string, tool: string, input: Record<string, unknown>) => ({
  session_id: "s",
  transcript_path: "",
  cwd,
  hook_event_name: "BeforeTool",
  timestamp: "2026-01-01T00:00:00Z",
  tool_name: tool,
  tool_input: input,
});
const codex = (cwd: string, tool: string, input: Record<string, unknown>) => ({
  session_id: "s",
  transcript_path: null,
  cwd,
  hook_event_name: "PreToolUse",
  model: "gpt-5",
  turn_id: "t1",
  tool_name: tool,
  tool_input: input,
  tool_use_id: "call_1",
});
const copilot = (cwd: string, tool: string, input: Record<string, unknown>) => ({
  timestamp: 1704614600000,
  cwd,
  toolName: tool,
  toolArgs: JSON.stringify(input),
});

const patch = (file: string) => `*** Begin Patch\n*** Update File: ${file}\n@@\n-a\n+b\n*** End Patch`;

describe("toolgate hook refuses changes to toolgate's own policy, for each agent", () => {
  it("claude-code: Write to the config, Bash ln -sf into .toolgate; Write to src still allowed", async () => {
    const dir = project();
    const write = await runHook("claude-code", claude(dir, "Write", { file_path: join(dir, "toolgate.config.json"), content: "{}" }));
    expect(write.code).toBe(2);
    expect(write.stderr).toMatch(
      /toolgate's protection of its own policy \(protectPolicy\): this call would change toolgate's config file .*a human must make this change/,
    );
    const link = await runHook("claude-code", claude(dir, "Bash", { command: "ln -sf ~/.bashrc .toolgate/decisions.jsonl" }));
    expect(link.code).toBe(2);
    const fine = await runHook("claude-code", claude(dir, "Write", { file_path: join(dir, "src/index.ts"), content: "export const x = 1;\n" }));
    expect(fine.code).toBe(0);
    expect(readFileSync(join(dir, "toolgate.config.json"), "utf8")).toBe(config);
  });

  it("gemini-cli: write_file into plugins/, run_shell_command rm -rf plugins", async () => {
    const dir = project();
    for (const [tool, input] of [
      ["write_file", { file_path: join(dir, "plugins/evil.mjs"), content: "export default {}" }],
      ["run_shell_command", { command: "rm -rf plugins" }],
    ] as const) {
      const run = await runHook("gemini-cli", gemini(dir, tool, input));
      expect(JSON.stringify(parseAnswer(run))).toMatch(/"decision":"deny".*the plugins folder/);
    }
  });

  it("codex: apply_patch on .codex/hooks.json, Bash sed -i on the config", async () => {
    const dir = project();
    const patched = await runHook("codex", codex(dir, "apply_patch", { command: patch(".codex/hooks.json") }));
    expect(patched.code).toBe(2);
    expect(patched.stderr).toMatch(/Codex's settings folder/);
    const sed = await runHook("codex", codex(dir, "Bash", { command: "sed -i s/allow/deny/ toolgate.config.json" }));
    expect(sed.code).toBe(2);
  });

  it("copilot-cli: edit of .github/hooks, bash mv of the config", async () => {
    const dir = project();
    for (const [tool, input] of [
      ["edit", { path: join(dir, ".github/hooks/toolgate.json"), old_str: "a", new_str: "b" }],
      ["bash", { command: "mv toolgate.config.json /tmp/gone.json" }],
    ] as const) {
      const run = await runHook("copilot-cli", copilot(dir, tool, input));
      expect(parseAnswer(run)).toMatchObject({ permissionDecision: "deny", permissionDecisionReason: expect.stringMatching(/protectPolicy/) });
    }
  });

  it("claude-code: a program the protection does not model, naming the config or unpacking in its folder, is refused", async () => {
    const dir = project();
    for (const command of ["sort -o toolgate.config.json notes.txt", "tar -xf upstream.tar", "curl -sSLO https://example.com/toolgate.config.json"]) {
      const run = await runHook("claude-code", claude(dir, "Bash", { command }));
      expect({ command, code: run.code }).toEqual({ command, code: 2 });
      expect(run.stderr).toMatch(/protectPolicy/);
    }
    const elsewhere = await runHook("claude-code", claude(dir, "Bash", { command: "tar -xf upstream.tar -C vendor" }));
    expect(elsewhere.code).toBe(0);
  });

  it('protectPolicy: "ask" asks (Claude Code enforces ask); "off" lets the call through', async () => {
    const asking = project({ "toolgate.config.json": JSON.stringify({ protectPolicy: "ask" }) });
    const asked = await runHook("claude-code", claude(asking, "Bash", { command: "rm -rf plugins" }));
    expect(parseAnswer(asked)).toMatchObject({ hookSpecificOutput: { permissionDecision: "ask" } });
    const off = project({ "toolgate.config.json": JSON.stringify({ protectPolicy: "off" }) });
    const allowed = await runHook("claude-code", claude(off, "Bash", { command: "rm -rf plugins" }));
    expect(allowed.code).toBe(0);
  });
});

describe("toolgate serve decides with the same protection", () => {
  it("/v1/check and /v1/hooks/claude-code", async () => {
    const dir = project();
    const served = await startServe(["--cwd", dir]);
    servers.push(served);
    const checked = await post(`${served.url}/v1/check`, {
      call: { id: "c1", name: "Bash", args: { command: "echo {} > toolgate.config.json" }, kind: "shell" },
    });
    expect(checked.body.verdict).toMatchObject({ action: "block", source: { kind: "rule", name: "protectPolicy" } });
    const hooked = await post(
      `${served.url}/v1/hooks/claude-code`,
      claude(dir, "Edit", { file_path: join(dir, ".claude/settings.json"), old_string: "a", new_string: "b" }),
    );
    expect(hooked.body.hookSpecificOutput).toMatchObject({
      permissionDecision: "deny",
      permissionDecisionReason: expect.stringMatching(/Claude Code's settings/),
    });
    const fine = await post(`${served.url}/v1/check`, { call: { id: "c2", name: "Bash", args: { command: "rm -rf dist" }, kind: "shell" } });
    expect(fine.body.verdict.action).toBe("allow");
  });
});

describe("toolgate mcp-proxy decides with the same protection", () => {
  it("the filesystem server's write_file and move_file onto the config are refused; nothing is written", async () => {
    const dir = project();
    const connection = await connectThroughProxy(dir, ["--", process.execPath, filesystemServerPath, dir]);
    try {
      const written = (await connection.client.callTool({
        name: "write_file",
        arguments: { path: join(dir, "toolgate.config.json"), content: "{}" },
      })) as CallToolResult;
      expect(written.isError).toBe(true);
      expect(written.content[0]).toMatchObject({ text: expect.stringMatching(/protectPolicy.*toolgate's config file/) });
      const moved = (await connection.client.callTool({
        name: "move_file",
        arguments: { source: join(dir, "plugins"), destination: join(dir, "old-plugins") },
      })) as CallToolResult;
      expect(moved.isError).toBe(true);
      expect(existsSync(join(dir, "plugins"))).toBe(true);
      expect(readFileSync(join(dir, "toolgate.config.json"), "utf8")).toBe(config);
      const fine = (await connection.client.callTool({ name: "write_file", arguments: { path: join(dir, "src/new.ts"), content: "x" } })) as CallToolResult;
      expect(fine.isError).toBeFalsy();
    } finally {
      await connection.close();
    }
  });
});

describe("the library", () => {
  it("callTool never runs a tool call that would change the policy; the option is validated", async () => {
    const dir = project();
    const ran: string[] = [];
    const host = await createHost({
      cwd: dir,
      logger: false,
      tools: { Bash: { kind: "shell", execute: (args: Record<string, unknown>) => (ran.push(String(args.command)), "ok") } },
    });
    expect(await host.callTool({ name: "Bash", args: { command: "cd plugins && touch evil.mjs" } })).toMatchObject({ status: "blocked" });
    expect(await host.callTool({ name: "Bash", args: { command: "npm test" } })).toMatchObject({ status: "ok" });
    expect(ran).toEqual(["npm test"]);
    await host.close();
    await expect(createHost({ cwd: dir, logger: false, protectPolicy: "maybe" as never })).rejects.toThrow(/protectPolicy must be "block", "ask" or "off"/);
  });
});

describe("two config files in one project fail closed, naming both, on every surface", () => {
  const twoConfigs = () => project({ "toolgate.config.mjs": "export default {};\n" });

  it("the library refuses to create a host", async () => {
    const error = await createHost({ cwd: twoConfigs(), logger: false }).catch((thrown: unknown) => thrown);
    expect(isToolgateError(error)).toBe(true);
    expect(String((error as Error).message)).toMatch(/toolgate\.config\.mjs and toolgate\.config\.json/);
  });

  it("toolgate hook denies every call", async () => {
    const dir = twoConfigs();
    const run = await runHook("claude-code", claude(dir, "Bash", { command: "ls" }));
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/2 config files in .*toolgate\.config\.mjs and toolgate\.config\.json/);
  });

  it("toolgate serve denies every call", async () => {
    const dir = twoConfigs();
    const served = await startServe(["--cwd", dir]);
    servers.push(served);
    const checked = await post(`${served.url}/v1/check`, { call: { id: "c1", name: "Bash", args: { command: "ls" }, kind: "shell" } });
    expect(checked.body.verdict).toMatchObject({ action: "block", message: expect.stringMatching(/toolgate\.config\.mjs and toolgate\.config\.json/) });
  });

  it("toolgate mcp-proxy denies every call", async () => {
    const dir = twoConfigs();
    const connection = await connectThroughProxy(dir, ["--", process.execPath, filesystemServerPath, dir]);
    try {
      const result = (await connection.client.callTool({ name: "list_allowed_directories", arguments: {} })) as CallToolResult;
      expect(result.isError).toBe(true);
      expect(result.content[0]).toMatchObject({ text: expect.stringMatching(/toolgate\.config\.mjs and toolgate\.config\.json/) });
    } finally {
      await connection.close();
    }
  });
});
