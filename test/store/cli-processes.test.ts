import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir, parseJsonLines, removeTempDirs, repoRoot, runCli, writeFiles } from "../cli/cli-harness.js";
import { parseAnswer, runHook } from "../agents/hook-harness.js";

// The real CLI, one process per invocation, sharing `store: "file"` through the project's config, as
// `toolgate hook` runs: one process per tool call, remembering nothing itself.

afterAll(removeTempDirs);

describe('the CLI on store: "file"', () => {
  let cwd: string;
  beforeAll(() => {
    cwd = makeTempDir("os", "store-cli-");
    const rateLimit = JSON.stringify(join(repoRoot, "plugins/rate-limit/src/index.ts"));
    writeFiles(cwd, {
      "toolgate.config.mjs": `export default { store: "file", session: { id: "dev" }, pluginsDir: false, plugins: [[${rateLimit}, { max: 4 }]] };`,
      "calls.jsonl": ["a", "b", "c"].map((id) => JSON.stringify({ id, name: "search", args: {} })).join("\n"),
    });
  });

  it("counts one limit across separate processes", async () => {
    const actions = async () => {
      const { code, stdout, stderr } = await runCli(["run", join(cwd, "calls.jsonl"), "--cwd", cwd, "--json"]);
      expect(stderr).toBe("");
      expect(code).toBe(0);
      return parseJsonLines(stdout).map((line) => (line as { verdict: { action: string } }).verdict.action);
    };
    expect(await actions()).toEqual(["allow", "allow", "allow"]);
    // A second process: "a", "b" and "c" again are the same calls (same ids), counted once.
    expect(await actions()).toEqual(["allow", "allow", "allow"]);
    writeFiles(cwd, { "calls.jsonl": ["d", "e", "f"].map((id) => JSON.stringify({ id, name: "search", args: {} })).join("\n") });
    expect(await actions()).toEqual(["allow", "block", "block"]);
  }, 60_000);
});

describe('toolgate hook on store: "file"', () => {
  it("enforces one rate limit across separate hook processes, one per tool call", async () => {
    const cwd = makeTempDir("os", "store-hook-");
    const rateLimit = JSON.stringify(join(repoRoot, "plugins/rate-limit/src/index.ts"));
    writeFiles(cwd, {
      "toolgate.config.mjs": `export default { store: "file", pluginsDir: false, plugins: [[${rateLimit}, { max: 3 }]] };`,
    });
    const decisions: string[] = [];
    for (let call = 1; call <= 6; call++) {
      const input = {
        session_id: "one-session",
        transcript_path: join(cwd, "transcript.jsonl"),
        cwd,
        hook_event_name: "PreToolUse",
        tool_name: "Bash",
        tool_input: { command: `echo ${call}` },
        tool_use_id: `toolu_${call}`,
      };
      const answer = parseAnswer(await runHook("claude-code", input, { cwd, env: { CLAUDE_PROJECT_DIR: cwd } }));
      const output = answer.hookSpecificOutput as { permissionDecision?: string } | undefined;
      decisions.push(output?.permissionDecision ?? "no opinion");
    }
    expect(decisions).toEqual(["no opinion", "no opinion", "no opinion", "deny", "deny", "deny"]);
  }, 120_000);
});
