import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { makeTempDir, removeTempDirs, repoRoot, runCli, writeFiles } from "../../helpers/cli-harness.js";

afterAll(removeTempDirs);

interface CheckJson {
  ok: boolean;
  problems: string[];
  warnings: string[];
}

interface DoctorJson {
  ok: boolean;
  project: { problem: string | null; warning: string | null };
}

function project(config: object, files: Record<string, string> = {}): string {
  const dir = makeTempDir("repo", "check-policy-");
  writeFiles(dir, { "toolgate.config.json": JSON.stringify({ pluginsDir: false, ...config }), ...files });
  return dir;
}

const rateLimit = join(repoRoot, "plugins/rate-limit/src/index.ts");

describe("check and doctor fail when calls will fail", () => {
  it("a command hook whose script is missing: check and doctor fail, naming the hook and the missing file", async () => {
    const dir = project({ hooks: { pre_tool_call: [{ command: "node hooks/guard.mjs" }] } });
    const check = await runCli(["check", "--json", "--cwd", dir]);
    const report = JSON.parse(check.stdout) as CheckJson;
    expect(check.code).toBe(1);
    expect(report.ok).toBe(false);
    expect(report.problems.join("\n")).toMatch(/denied because a policy cannot run.*command:node hooks\/guard\.mjs.*Cannot find module/);
    const human = await runCli(["check", "--cwd", dir]);
    expect(human.stdout).toContain("check failed: 1 problem");

    const doctor = await runCli(["doctor", "--json", "--cwd", dir]);
    expect(doctor.code).toBe(1);
    const diagnosis = JSON.parse(doctor.stdout) as DoctorJson;
    expect(diagnosis.ok).toBe(false);
    expect(diagnosis.project.problem).toContain('plugin "command:node hooks/guard.mjs" failed');
  });

  it("a model hook that cannot run (its key variable is not set): both fail", async () => {
    const dir = project({ hooks: { pre_tool_call: [{ type: "model", model: "openai:gpt-x", apiKeyEnv: "TOOLGATE_TEST_UNSET_KEY" }] } });
    const check = await runCli(["check", "--json", "--cwd", dir]);
    expect(check.code).toBe(1);
    expect((JSON.parse(check.stdout) as CheckJson).problems.join("\n")).toContain("TOOLGATE_TEST_UNSET_KEY (apiKeyEnv) is not set");
    const doctor = await runCli(["doctor", "--json", "--cwd", dir]);
    expect(doctor.code).toBe(1);
    expect((JSON.parse(doctor.stdout) as DoctorJson).project.problem).toContain("TOOLGATE_TEST_UNSET_KEY");
  });

  it("a sample call denied by a policy is the policy working: both pass", async () => {
    const dir = project({ permissions: { deny: ["Bash"] } });
    const check = await runCli(["check", "--json", "--cwd", dir]);
    expect(check.code, check.stdout + check.stderr).toBe(0);
    expect(JSON.parse(check.stdout)).toMatchObject({ ok: true, problems: [], warnings: [] });
    const doctor = await runCli(["doctor", "--json", "--cwd", dir]);
    expect((JSON.parse(doctor.stdout) as DoctorJson).project).toMatchObject({ problem: null, warning: null });
  });
});

describe("check and doctor warn of limits counted in the memory store", () => {
  it("a rate limit with the memory store gets a warning that names the fix; with store: file none", async () => {
    const memory = project({ plugins: [[rateLimit, { max: 2 }]] });
    const check = await runCli(["check", "--json", "--cwd", memory]);
    expect(check.code).toBe(0);
    expect((JSON.parse(check.stdout) as CheckJson).warnings.join("\n")).toMatch(/"rate-limit" counts calls in the memory store.*store: "file"/);
    const doctor = await runCli(["doctor", "--cwd", memory]);
    expect(doctor.stdout).toMatch(/warning: "rate-limit" counts calls in the memory store/);

    const file = project({ store: "file", plugins: [[rateLimit, { max: 2 }]] });
    const fileCheck = await runCli(["check", "--json", "--cwd", file]);
    expect((JSON.parse(fileCheck.stdout) as CheckJson).warnings).toEqual([]);
    expect((JSON.parse((await runCli(["doctor", "--json", "--cwd", file])).stdout) as DoctorJson).project.warning).toBeNull();
  });
});
