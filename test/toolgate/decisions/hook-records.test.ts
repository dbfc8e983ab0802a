import { afterAll, expect, it } from "vitest";
import { makeTempDir, parseJsonLines, removeTempDirs, runCli, writeFiles } from "../../helpers/cli-harness.js";
import { policyPlugin, runHook } from "../../helpers/hook-harness.js";
import { startCli } from "./records.js";

afterAll(removeTempDirs);

const pre = (cwd: string, id: number) => ({
  session_id: "session-follow",
  transcript_path: "/tmp/transcript.jsonl",
  cwd,
  permission_mode: "default",
  hook_event_name: "PreToolUse",
  tool_name: "Bash",
  tool_input: { command: id % 2 === 0 ? "rm -rf /" : "pwd" },
  tool_use_id: `toolu_${id}`,
});

it("follows what concurrent `toolgate hook` processes record: each call once, whole", async () => {
  const dir = makeTempDir("repo", "decisions-hooks-");
  writeFiles(dir, { "plugins/policy.mjs": policyPlugin.replace("__CWD__", dir) });
  const follow = startCli(["decisions", "--cwd", dir, "--follow", "--json"]);
  try {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const calls = Array.from({ length: 8 }, (_, id) => id);
    await Promise.all(calls.map((id) => runHook("claude-code", pre(dir, id))));
    await expect.poll(() => follow.stdout().split("\n").length - 1, { timeout: 15_000 }).toBe(calls.length);
    const followed = parseJsonLines(follow.stdout()) as { callId: string; verdict: string; surface: string }[];
    expect(followed.map((record) => record.callId).sort()).toEqual(calls.map((id) => `toolu_${id}`));
    expect(
      followed.every((record) => record.surface === "hook:claude-code" && record.verdict === (Number(record.callId.at(-1)) % 2 === 0 ? "block" : "allow")),
    ).toBe(true);
    const listed = await runCli(["decisions", "--cwd", dir, "--verdict", "block", "--session", "session-follow"]);
    expect(listed.stdout.split("\n").filter(Boolean)).toHaveLength(4);
    expect(listed.stdout).toMatch(/ {2}hook:claude-code {2}BLOCK {2}Bash rm -rf \S+ {2}plugin policy: rm -rf is not allowed here\n/);
  } finally {
    await follow.stop();
  }
}, 60_000);
