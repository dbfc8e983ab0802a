import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { DecisionRecord } from "@toolgate/host";
import { afterAll, describe, expect, it } from "vitest";
import { parseAnswer, runHook } from "../../helpers/hook-harness.js";
import { repoRoot } from "../../helpers/cli-harness.js";
import { bash, makeWorld, noSandbox, sandboxPlugin, type World } from "./world.js";

const worlds: World[] = [];
afterAll(() => {
  for (const made of worlds) made.remove();
});

function world(agent: string, config?: Record<string, unknown>): World {
  const made = makeWorld(agent, config);
  worlds.push(made);
  return made;
}

function recordsIn(project: string): DecisionRecord[] {
  const path = join(project, ".toolgate", "decisions.jsonl");
  if (!existsSync(path)) return [];
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as DecisionRecord);
}

/** Each agent that can take a rewrite: its pre-tool input for a shell command, and where its answer puts the rewritten command. */
const rewriting: Record<string, { input(cwd: string, command: string): unknown; rewritten(answer: Record<string, unknown>): unknown }> = {
  "claude-code": {
    input: (cwd, command) => ({
      hook_event_name: "PreToolUse",
      session_id: "s-claude",
      transcript_path: "",
      cwd,
      tool_name: "Bash",
      tool_input: { command, description: "two writes" },
      tool_use_id: "toolu_1",
    }),
    rewritten: (answer) => (answer.hookSpecificOutput as { updatedInput?: { command?: unknown } }).updatedInput?.command,
  },
  "gemini-cli": {
    input: (cwd, command) => ({
      session_id: "s-gemini",
      transcript_path: "",
      cwd,
      hook_event_name: "BeforeTool",
      timestamp: "2026-01-01T00:00:00Z",
      tool_name: "run_shell_command",
      tool_input: { command },
    }),
    rewritten: (answer) => (answer.hookSpecificOutput as { tool_input?: { command?: unknown } }).tool_input?.command,
  },
  "copilot-cli": {
    input: (cwd, command) => ({ timestamp: 1704614600000, cwd, toolName: "bash", toolArgs: JSON.stringify({ command, description: "d" }) }),
    rewritten: (answer) => (answer.permissionDecision === "allow" ? (answer.modifiedArgs as { command?: unknown } | undefined)?.command : undefined),
  },
};

describe.skipIf(noSandbox).concurrent("each hook agent that takes a rewrite runs the shell call contained", () => {
  for (const [agent, { input, rewritten }] of Object.entries(rewriting)) {
    it(`${agent}: the rewritten command's write inside the project happens, its write outside fails`, async () => {
      const w = world(agent);
      const run = await runHook(agent, input(w.project, w.command));
      expect(run.code, run.stderr).toBe(0);
      const command = rewritten(parseAnswer(run));
      expect(typeof command, JSON.stringify(parseAnswer(run))).toBe("string");
      expect(command).toMatch(/^\/\S*bwrap /);
      const ran = await bash(command as string, w.project);
      expect(ran.code).toBe(1);
      expect(ran.stderr).toMatch(/x\.txt: Read-only file system/);
      expect(w.effects()).toEqual({ inside: true, outside: false });
      // Uncontained, the same line writes both: the outside folder is writable, only the sandbox holds it.
      const plain = world(`${agent}-plain`);
      expect((await bash(plain.command, plain.project)).code).toBe(0);
      expect(plain.effects()).toEqual({ inside: true, outside: true });
    });

    it(`${agent}: the decision record shows the command as asked, marked contained`, async () => {
      const w = world(`${agent}-record`, { plugins: [sandboxPlugin], decisions: { args: "full" } });
      const run = await runHook(agent, input(w.project, w.command));
      expect(run.code, run.stderr).toBe(0);
      const records = recordsIn(w.project);
      expect(records).toHaveLength(1);
      expect(records[0]).toMatchObject({ verdict: "allow", contained: true, participants: [expect.objectContaining({ name: "sandbox", action: "modify" })] });
      expect((records[0]?.args as { command?: unknown } | undefined)?.command).toBe(w.command);
      expect(JSON.stringify(records[0])).not.toContain("bwrap");
    });
  }
});

describe.skipIf(noSandbox)("toolgate hook codex with the sandbox", () => {
  it("denies the shell call, since Codex cannot take a rewrite and would run it uncontained", async () => {
    const w = world("codex");
    const run = await runHook("codex", {
      session_id: "c-1",
      transcript_path: null,
      cwd: w.project,
      hook_event_name: "PreToolUse",
      model: "gpt-5",
      turn_id: "t1",
      tool_name: "Bash",
      tool_input: { command: w.command },
      tool_use_id: "call_1",
    });
    const answer = parseAnswer(run).hookSpecificOutput as Record<string, unknown>;
    expect(run.code).toBe(2);
    expect(String(answer.permissionDecisionReason)).toBe(
      "toolgate plugins rewrote the arguments of this call, and codex hooks cannot apply rewritten arguments, so toolgate denies it",
    );
    expect(answer.permissionDecision).toBe("deny");
    expect(answer).not.toHaveProperty("updatedInput");
    expect(w.effects()).toEqual({ inside: false, outside: false });
  });
});

describe.skipIf(noSandbox)("toolgate hook claude-code with the guard and the sandbox", () => {
  const guarded = () => world("guarded", { plugins: [join(repoRoot, "plugins/block-dangerous-shell/src/index.ts"), sandboxPlugin] });
  const pre = (cwd: string, command: string) => ({
    hook_event_name: "PreToolUse",
    session_id: "s-guarded",
    transcript_path: "",
    cwd,
    tool_name: "Bash",
    tool_input: { command },
    tool_use_id: "toolu_g",
  });

  it("the guard lets the contained line through: its write inside happens, its write outside fails", async () => {
    const w = guarded();
    const output = parseAnswer(await runHook("claude-code", pre(w.project, w.command))).hookSpecificOutput as { updatedInput?: { command?: string } };
    expect(output.updatedInput?.command).toMatch(/^\/\S*bwrap /);
    await bash(output.updatedInput!.command!, w.project);
    expect(w.effects()).toEqual({ inside: true, outside: false });
  });

  it("what the guard refuses is denied, and the message names the command as asked, not the contained line", async () => {
    const w = guarded();
    const output = parseAnswer(await runHook("claude-code", pre(w.project, "rm -rf ~"))).hookSpecificOutput as Record<string, unknown>;
    expect(output.permissionDecision).toBe("deny");
    expect(String(output.permissionDecisionReason)).toContain("`rm -rf ~`");
    expect(String(output.permissionDecisionReason)).not.toContain("bwrap");
  });
});
