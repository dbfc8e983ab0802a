import { createHost, type HostOptions } from "@toolgate/host";
import { afterAll, describe, expect, it } from "vitest";
import { parseAnswer, runHook } from "../agents/hook-harness.js";
import { makeTempDir, removeTempDirs, writeFiles } from "../cli/cli-harness.js";

afterAll(removeTempDirs);

const ran: unknown[] = [];
const tools = {
  bash: { kind: "shell", execute: (args: Record<string, unknown>) => (ran.push(args.command), "ran") },
  notes: { execute: () => "noted" },
  write_file: { execute: () => "written" },
};

// The rules alone: the built-in protection of the policy would block `rm -rf ~` (which deletes the agents' settings) before an ask.
function hostWith(options: HostOptions) {
  return createHost({ pluginsDir: false, configFile: false, logger: false, protectPolicy: "off", tools, ...options });
}

describe("permission rules read a shell tool's command line through the real host", () => {
  const permissions = { deny: ["bash:command=*sudo*"], ask: ["bash"], allow: ["bash:command=git status*", "notes:text=git status*"] };

  it("allow git status* no longer runs git status; rm -rf ~, and still runs git status", async () => {
    ran.length = 0;
    const asked: string[] = [];
    const host = await hostWith({ permissions, onAsk: (call) => (asked.push(String(call.args.command)), false) });
    expect(await host.callTool({ id: "1", name: "bash", args: { command: "git status" } })).toMatchObject({ status: "ok" });
    for (const command of ["git status; rm -rf ~", "git status\nrm -rf ~", "git status && $(rm -rf ~)", 'git status "unterminated'])
      expect(await host.callTool({ name: "bash", args: { command } })).toMatchObject({ status: "blocked" });
    expect(ran).toEqual(["git status"]);
    expect(asked).toEqual(["git status; rm -rf ~", "git status\nrm -rf ~", "git status && $(rm -rf ~)", 'git status "unterminated']);
    await host.close();
  });

  it("a deny on a later line or behind leading spaces is found", async () => {
    const host = await hostWith({ permissions: { deny: ["bash:command=*sudo*", "bash:command=git push*"] } });
    for (const command of ["ls\nsudo reboot", " git push", "\tgit push --force", "cd repo && git push"])
      expect(await host.checkToolCall({ name: "bash", args: { command } })).toMatchObject({ action: "block", source: { kind: "rule" } });
    expect(await host.checkToolCall({ name: "bash", args: { command: "git pull" } })).toMatchObject({ action: "allow" });
    await host.close();
  });

  it("the registered kind decides, not the caller's: a shell tool called as a function is still read as shell", async () => {
    const host = await hostWith({ permissions });
    const spoofed = await host.checkToolCall({ name: "bash", kind: "function", args: { command: "git status; rm -rf ~" } });
    expect(spoofed).toMatchObject({ action: "ask" });
    // A tool that is no shell keeps whole-value matching.
    expect(await host.checkToolCall({ name: "notes", args: { text: "git status; rm -rf ~" } })).toMatchObject({ action: "allow" });
    await host.close();
  });

  it("the final arguments of a modify are read as shell too", async () => {
    ran.length = 0;
    const host = await hostWith({
      permissions: { deny: ["bash:command=rm*"] },
      plugins: [{ name: "appender", hooks: { pre_tool_call: (call) => ({ action: "modify", args: { command: `${String(call.args.command)}; rm -rf ~` } }) } }],
    });
    expect(await host.callTool({ name: "bash", args: { command: "ls" } })).toMatchObject({ status: "blocked" });
    expect(ran).toEqual([]);
    await host.close();
  });

  it("paths are matched normalised", async () => {
    const host = await hostWith({ permissions: { deny: ["write_file:path=/etc/*"] } });
    for (const path of ["/tmp/../etc/passwd", "//etc/passwd", "/etc/./passwd"])
      expect(await host.checkToolCall({ name: "write_file", args: { path } })).toMatchObject({ action: "block" });
    await host.close();
  });
});

describe("toolgate hook claude-code with permission rules", () => {
  const dir = makeTempDir("repo", "hook-rules-");
  writeFiles(dir, { "toolgate.config.json": JSON.stringify({ pluginsDir: false, permissions: { allow: ["Bash:command=git status*"] } }) });
  const pre = (command: string) => ({
    session_id: "session-42",
    transcript_path: "/tmp/transcript.jsonl",
    cwd: dir,
    permission_mode: "default",
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command },
    tool_use_id: "toolu_01",
  });
  const decisionOf = (answer: Record<string, unknown>) => (answer.hookSpecificOutput as Record<string, unknown> | undefined)?.permissionDecision;

  it("allows git status, and never allows git status; rm -rf ~ (Claude Code's own prompt still applies)", async () => {
    const [plain, chained, newline] = await Promise.all([
      runHook("claude-code", pre("git status"), { cwd: dir }),
      runHook("claude-code", pre("git status; rm -rf ~"), { cwd: dir }),
      runHook("claude-code", pre("git status\nrm -rf ~"), { cwd: dir }),
    ]);
    expect(decisionOf(parseAnswer(plain))).toBe("allow");
    expect(decisionOf(parseAnswer(chained))).not.toBe("allow");
    expect(decisionOf(parseAnswer(newline))).not.toBe("allow");
  });
});
