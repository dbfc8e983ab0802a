import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { makeTempDir, removeTempDirs, runCli, writeFiles } from "../../helpers/cli-harness.js";

afterAll(removeTempDirs);

const claudeSettings = {
  permissions: {
    allow: ["Bash(git status:*)", "Bash(npm run test)", "Read(./src/**)", "WebFetch(domain:example.com)", "mcp__github__list_issues"],
    deny: ["Bash(rm:*)", "Read(./.env)"],
    ask: ["Bash(git push:*)"],
    defaultMode: "acceptEdits",
  },
};

function project(files: Record<string, string>): string {
  const dir = makeTempDir("repo", "import-cc-");
  writeFiles(dir, { ".claude/settings.json": JSON.stringify(claudeSettings, null, 2), ...files });
  return dir;
}

/** What `toolgate explain` decides for a call in `dir`, as JSON. */
async function explain(dir: string, tool: string, args: unknown): Promise<{ verdict: { action: string } }> {
  const run = await runCli(["explain", tool, JSON.stringify(args), "--cwd", dir, "--json"]);
  return JSON.parse(run.stdout) as { verdict: { action: string } };
}

describe("toolgate import claude-code", () => {
  it("creates toolgate.config.json with the rules when the project has no config, and the rules then decide", async () => {
    const dir = project({});
    const run = await runCli(["import", "claude-code", "--cwd", dir]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("8 of 8 rules added to toolgate.config.json (created)");
    expect(run.stdout).toContain("permissions.defaultMode");
    const config = JSON.parse(readFileSync(join(dir, "toolgate.config.json"), "utf8")) as { permissions: Record<string, string[]> };
    expect(config.permissions).toEqual({ deny: claudeSettings.permissions.deny, ask: claudeSettings.permissions.ask, allow: claudeSettings.permissions.allow });
    expect((await explain(dir, "Bash", { command: "cd /tmp && rm -rf x" })).verdict.action).toBe("block");
    expect((await explain(dir, "Read", { file_path: ".env" })).verdict.action).toBe("block");
    expect((await explain(dir, "Bash", { command: "git push origin main" })).verdict.action).toBe("ask");
    expect((await explain(dir, "Bash", { command: "git status -s" })).verdict.action).toBe("allow");
  });

  it("adds to an existing YAML config, keeping its comments, and twice is once", async () => {
    const dir = project({ "toolgate.config.yaml": '# the team\'s policy\npermissions:\n  deny:\n    - "Bash(rm:*)"  # never\n' });
    expect((await runCli(["import", "claude-code", "--cwd", dir])).code).toBe(0);
    const again = await runCli(["import", "claude-code", "--cwd", dir, "--json"]);
    expect(JSON.parse(again.stdout)).toMatchObject({ ok: true, added: [] });
    const text = readFileSync(join(dir, "toolgate.config.yaml"), "utf8");
    expect(text).toContain("# the team's policy");
    expect(text).toContain("# never");
    expect(text.match(/Bash\(rm:\*\)/g)).toHaveLength(1);
    expect(text).toContain("WebFetch(domain:example.com)");
  });

  it("adds to a module config through its default export", async () => {
    const dir = project({ "toolgate.config.mjs": '// ours\nexport default { plugins: [], permissions: { allow: ["Bash(ls:*)"] } };\n' });
    expect((await runCli(["import", "claude-code", "--cwd", dir])).code).toBe(0);
    const text = readFileSync(join(dir, "toolgate.config.mjs"), "utf8");
    expect(text).toContain("// ours");
    expect(text).toContain("Bash(ls:*)");
    expect(text).toContain("Read(./src/**)");
    expect((await explain(dir, "Bash", { command: "rm -rf build" })).verdict.action).toBe("block");
  });

  it("copies what it can read, names each rule it cannot with the form expected, and exits 1", async () => {
    const dir = project({ ".claude/settings.local.json": JSON.stringify({ permissions: { deny: ["Task(Explore)"], allow: ["WebFetch(https://x.org)"] } }) });
    const run = await runCli(["import", "claude-code", "--cwd", dir]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/✗ deny Task\(Explore\) not copied: .*write "Task" for every call/);
    expect(run.stdout).toMatch(/✗ allow WebFetch\(https:\/\/x\.org\) not copied: .*domain:<host>/);
    expect(JSON.parse(readFileSync(join(dir, "toolgate.config.json"), "utf8")).permissions.deny).toEqual(claudeSettings.permissions.deny);
  });

  it("no Claude Code settings: says where it looked (exit 2)", async () => {
    const dir = makeTempDir("repo", "import-cc-");
    const run = await runCli(["import", "claude-code", "--cwd", dir]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/no Claude Code settings in .*\.claude\/settings\.json and \.claude\/settings\.local\.json/);
  });
});
