import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it, vi } from "vitest";
import { makeTempDir, removeTempDirs, runCli, writeFiles } from "../../helpers/cli-harness.js";
import { appendRecords, blocked, logOf, record } from "./records.js";
import { runHook } from "../../helpers/hook-harness.js";
import { rawRequest, startUi, type RunningUi } from "../ui/ui-harness.js";

// Real CLI processes, several seconds each on a busy machine.
vi.setConfig({ testTimeout: 90_000 });

const running: RunningUi[] = [];
afterAll(async () => {
  for (const ui of running) await ui.cli.stop();
  removeTempDirs();
});

// A config module that leaves a mark when it is run: reading the log must not run it.
const markingConfig = (dir: string) =>
  `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(join(dir, "config-ran"))}, "yes");\nexport default { decisions: { log: "elsewhere.jsonl" } };\n`;

describe("toolgate decisions and ui find the log without running project code", () => {
  it("decisions: a code config is not run; the default log is read, and a note says so", async () => {
    const dir = makeTempDir("os", "read-log-");
    writeFiles(dir, { "toolgate.config.mjs": markingConfig(dir) });
    appendRecords(logOf(dir), blocked("policy", "no", { callId: "c1" }));
    const run = await runCli(["decisions", "--cwd", dir, "--json"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('"callId":"c1"');
    expect(run.stderr).toMatch(/toolgate\.config\.mjs is code and is not run to find the log: reading .*decisions\.jsonl \(pass --file/);
    expect(existsSync(join(dir, "config-ran"))).toBe(false);
  });

  it("decisions: a JSON config's decisions.log is read as data", async () => {
    const dir = makeTempDir("os", "read-log-");
    writeFiles(dir, { "toolgate.config.json": JSON.stringify({ decisions: { log: "logs/calls.jsonl" } }) });
    appendRecords(join(dir, "logs/calls.jsonl"), record({ callId: "from-config" }));
    const run = await runCli(["decisions", "--cwd", dir, "--json"]);
    expect(run.stdout).toContain('"callId":"from-config"');
  });

  it("decisions: two config files are an error naming both", async () => {
    const dir = makeTempDir("os", "read-log-");
    writeFiles(dir, { "toolgate.config.json": "{}", "toolgate.config.yaml": "{}\n" });
    const run = await runCli(["decisions", "--cwd", dir]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/toolgate\.config\.json and toolgate\.config\.yaml/);
  });

  it("ui: a code config is not run to find the log", async () => {
    const dir = makeTempDir("os", "read-log-");
    writeFiles(dir, { "toolgate.config.mjs": markingConfig(dir) });
    appendRecords(logOf(dir), record({ callId: "c1" }));
    const ui = await startUi(dir);
    running.push(ui);
    expect(existsSync(join(dir, "config-ran"))).toBe(false);
  });
});

describe("the ui's explain spends nothing", () => {
  it("explaining a call many times leaves the rate limit's only slot for the real call, in the shared file store", async () => {
    const dir = makeTempDir("repo", "explain-budget-");
    const rateLimit = fileURLToPath(new URL("../../../plugins/rate-limit", import.meta.url));
    writeFiles(dir, { "toolgate.config.json": JSON.stringify({ store: "file", pluginsDir: false, plugins: [[rateLimit, { max: 1, windowMs: 3_600_000 }]] }) });
    const ui = await startUi(dir);
    running.push(ui);
    const body = JSON.stringify({ tool: "Bash", kind: "shell", args: { command: "ls" }, session: "s", callId: "recorded-1" });
    for (let index = 0; index < 3; index++) {
      const answer = await rawRequest(`${ui.url}api/explain`, { method: "POST", headers: { "Content-Type": "application/json" }, body });
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toMatchObject({ explanation: { verdict: { action: "allow" } } });
    }
    const input = (id: string) => ({
      hook_event_name: "PreToolUse",
      session_id: "s",
      transcript_path: "",
      cwd: dir,
      tool_name: "Bash",
      tool_input: { command: "ls" },
      tool_use_id: id,
    });
    expect((await runHook("claude-code", input("real-1"))).code).toBe(0);
    // The slot is now taken for real: the rate limit works, and the explanations above were free.
    const second = await runHook("claude-code", input("real-2"));
    expect(second.code).toBe(2);
    expect(second.stderr).toMatch(/rate-limit/);
  });
});
