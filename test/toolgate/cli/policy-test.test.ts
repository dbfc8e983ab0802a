import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { makeTempDir, removeTempDirs, repoRoot, runCli, writeFiles } from "../../helpers/cli-harness.js";

afterAll(removeTempDirs);

function filesUnder(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

const pluginPath = (name: string) => JSON.stringify(join(repoRoot, `plugins/${name}/src/index.ts`));

// A plugin that goes by the call's kind only, so a case shows whether it was sent as its agent sends it.
const kindPlugin = `
export default {
  name: "no-shell-kind",
  hooks: {
    pre_tool_call(call) {
      if (call.kind === "shell" && String(call.args.command).startsWith("curl")) return { action: "block", message: "no curl from a shell" };
      if (call.name === "write_file") return { action: "modify", args: { path: "/sandbox/" + call.args.path } };
      if (call.name === "deploy") return { action: "ask", message: "deploys need a human" };
    },
  },
};
`;

function project(files: Record<string, string>, plugins = pluginPath("block-dangerous-shell")): string {
  const cwd = makeTempDir("repo", "policy-test-");
  writeFiles(cwd, {
    "plugins/no-shell-kind.mjs": kindPlugin,
    "toolgate.config.mjs": `export default { plugins: [${plugins}], permissions: { deny: ["read_file:path=*.env"] } };`,
    ...files,
  });
  return cwd;
}

const passing = `
cases:
  - name: force push from Claude Code is blocked by the shell guard
    agent: claude-code
    tool: Bash
    args: { command: "git push --force origin main" }
    expect: block
    by: block-dangerous-shell
    message: /force-with-lease/
  - name: curl through Claude Code's Bash is a shell call
    agent: claude-code
    tool: Bash
    args: { command: "curl https://example.com" }
    expect: block
    by: plugin:no-shell-kind
    message: no curl
  - name: reading an env file is denied by a rule
    tool: read_file
    args: { path: prod.env }
    expect: block
    by: rule:read_file:path=*.env
  - tool: write_file
    args: { path: notes.txt }
    expect: modify
    by: no-shell-kind
  - tool: deploy
    expect: ask
  - tool: ls
    expect: allow
`;

interface JsonReport {
  passed: number;
  failed: number;
  cases: {
    where: string;
    name?: string;
    call: { name: string; kind?: string; args: Record<string, unknown> };
    agent?: string;
    expected: { verdict: string; by?: string; message?: string };
    got: { verdict: string; source?: { kind: string; name: string }; message?: string; args: Record<string, unknown> };
    pass: boolean;
    mismatches: string[];
  }[];
  failedPlugins: unknown[];
}

describe("toolgate test", () => {
  it("passes a project's fixtures (toolgate.test.yaml and toolgate.tests/) and exits 0", async () => {
    const cwd = project({
      "toolgate.test.yaml": passing,
      "toolgate.tests/more.json": JSON.stringify({
        cases: [{ name: "rm -rf / is blocked", tool: "terminal", args: { command: "rm -rf /" }, expect: "block" }],
      }),
    });
    const { code, stdout, stderr } = await runCli(["test", "--cwd", cwd]);
    expect(stderr).toBe("");
    expect(stdout).toContain('pass toolgate.test.yaml cases[0] ("force push from Claude Code is blocked by the shell guard")');
    expect(stdout).toContain("pass toolgate.test.yaml cases[5]");
    expect(stdout).toContain(`pass ${join("toolgate.tests", "more.json")} cases[0] ("rm -rf / is blocked")`);
    expect(stdout).toContain("7 cases: 7 passed, 0 failed");
    expect(code).toBe(0);
  }, 60_000);

  it("a case whose verdict differs fails with the call, expected, got, the decider and the message, and exits 1", async () => {
    const cwd = project({
      "fixtures.yaml": `
cases:
  - name: I think force push is fine
    agent: claude-code
    tool: Bash
    args: { command: "git push --force" }
    expect: allow
  - name: right verdict, wrong decider and message
    tool: read_file
    args: { path: .env }
    expect: block
    by: block-dangerous-shell
    message: /secrets/
  - tool: ls
    expect: allow
`,
    });
    const { code, stdout, stderr } = await runCli(["test", join(cwd, "fixtures.yaml"), "--cwd", cwd]);
    expect(stderr).toBe("");
    expect(stdout).toContain('FAIL fixtures.yaml cases[0] ("I think force push is fine")');
    expect(stdout).toContain('  call:     Bash (agent claude-code, kind shell) {"command":"git push --force"}');
    expect(stdout).toContain("  expected: allow\n  got:      block by plugin block-dangerous-shell\n  message:  ");
    expect(stdout).toContain("✗ expected allow, got block");
    expect(stdout).toContain("✗ expected to be decided by block-dangerous-shell, decided by rule read_file:path=*.env");
    expect(stdout).toMatch(/✗ expected a message matching \/secrets\/, got ".*read_file:path=\*\.env/);
    expect(stdout).not.toContain("FAIL fixtures.yaml cases[2]");
    expect(stdout).toContain("pass fixtures.yaml cases[2]");
    expect(stdout).toContain("3 cases: 1 passed, 2 failed");
    expect(code).toBe(1);
  }, 60_000);

  it("--json gives every case with its call, expectation, verdict, decider and mismatches", async () => {
    const cwd = project({ "toolgate.test.yaml": `${passing}\n  - tool: Bash\n    args: { command: "rm -rf /" }\n    expect: ask\n` });
    const { code, stdout, stderr } = await runCli(["test", "--cwd", cwd, "--json"]);
    expect(stderr).toBe("");
    expect(code).toBe(1);
    const report = JSON.parse(stdout) as JsonReport;
    expect(report).toMatchObject({ passed: 6, failed: 1, failedPlugins: [] });
    expect(report.cases[0]).toMatchObject({
      where: 'toolgate.test.yaml cases[0] ("force push from Claude Code is blocked by the shell guard")',
      call: { name: "Bash", kind: "shell", args: { command: "git push --force origin main" } },
      agent: "claude-code",
      expected: { verdict: "block", by: "block-dangerous-shell", message: "/force-with-lease/" },
      got: { verdict: "block", source: { kind: "plugin", name: "block-dangerous-shell" } },
      pass: true,
      mismatches: [],
    });
    expect(report.cases[3]).toMatchObject({ got: { verdict: "modify", args: { path: "/sandbox/notes.txt" } }, pass: true });
    expect(report.cases[5]!.got).toEqual({ verdict: "allow", args: {} });
    expect(report.cases[6]).toMatchObject({ pass: false, got: { verdict: "block" }, mismatches: ["expected ask, got block"] });
  }, 60_000);

  it("the agent a case names decides its kind: Bash from claude-code is a shell call, a bare Bash has no kind", async () => {
    const curl = (agent: string) => `  - tool: Bash\n    ${agent}args: { command: "curl https://example.com" }\n    expect: allow\n`;
    const cwd = project({ "toolgate.test.yaml": `cases:\n${curl("")}${curl("agent: claude-code\n    ")}` });
    const { code, stdout } = await runCli(["test", "--cwd", cwd, "--json"]);
    const report = JSON.parse(stdout) as JsonReport;
    expect(report.cases.map((each) => [each.call.kind, each.got.verdict])).toEqual([
      [undefined, "allow"],
      ["shell", "block"],
    ]);
    expect(code).toBe(1);
  }, 60_000);

  it("shadow: a case says what its shadow rules would do; the gate's own verdict is still checked", async () => {
    const cwd = project({
      "toolgate.config.mjs": `export default { permissions: { deny: ["read_file:path=*.env"], shadow: { deny: ["Bash:command=git push --force*"], ask: ["release"] } } };`,
      "toolgate.test.yaml": `
cases:
  - name: a force push passes, and the shadow rule would block it
    agent: claude-code
    tool: Bash
    args: { command: "git push --force origin main" }
    expect: allow
    shadow: block
  - name: a release would ask
    tool: release
    expect: allow
    shadow: ask
  - name: an enforced block stays a block with its shadows enforced
    tool: read_file
    args: { path: prod.env }
    expect: block
    shadow: block
  - name: nothing watches ls
    tool: ls
    expect: allow
    shadow: allow
  - name: wrong, the shadow would block this
    agent: claude-code
    tool: Bash
    args: { command: "git push --force origin main" }
    expect: allow
    shadow: allow
  - name: wrong, nothing watches this
    tool: ls
    expect: allow
    shadow: block
`,
    });
    const text = await runCli(["test", "--cwd", cwd]);
    expect(text.stderr).toBe("");
    expect(text.stdout).toContain("6 cases: 4 passed, 2 failed");
    expect(text.stdout).toContain('FAIL toolgate.test.yaml cases[4] ("wrong, the shadow would block this")');
    expect(text.stdout).toContain(
      "  expected: allow, allow with shadows enforced\n  got:      allow by nobody\n  shadow:   block by rule Bash:command=git push --force*",
    );
    expect(text.stdout).toContain("✗ expected allow with the shadow participants enforced, got block by rule Bash:command=git push --force*");
    expect(text.stdout).toContain("✗ expected block with the shadow participants enforced, got allow by nobody");
    expect(text.code).toBe(1);
    const report = JSON.parse((await runCli(["test", "--cwd", cwd, "--json"])).stdout) as JsonReport;
    expect(report.cases.map((each) => [each.pass, each.got.verdict, (each.got as { shadow?: { verdict: string } }).shadow?.verdict])).toEqual([
      [true, "allow", "block"],
      [true, "allow", "ask"],
      [true, "block", "block"],
      [true, "allow", "allow"],
      [false, "allow", "block"],
      [false, "allow", "allow"],
    ]);
  }, 60_000);

  it("broken fixture files are named with file, line, case and what is wrong (exit 2), and no case runs", async () => {
    const cwd = project({
      "bad-yaml.yaml": "cases:\n  - tool: [\n",
      "bad-cases.yaml":
        "cases:\n  - name: typo\n    tool: Bash\n    expect: deny\n  - args: { command: ls }\n    expect: allow\n  - tool: x\n    expect: allow\n    message: /(/\n",
      "bad.json": JSON.stringify({ cases: [{ tool: "a", expect: "allow", agent: "cursor" }] }),
      "good.yaml": "cases:\n  - tool: ls\n    expect: allow\n",
    });
    const files = ["good.yaml", "bad-yaml.yaml", "bad-cases.yaml", "bad.json", "missing.yaml"].map((file) => join(cwd, file));
    const { code, stdout, stderr } = await runCli(["test", ...files, "--cwd", cwd]);
    expect(stdout).toBe("");
    const lines = stderr.trim().split("\n");
    expect(lines).toEqual([
      expect.stringMatching(/^error: bad-yaml\.yaml:3: not valid YAML: /),
      'error: bad-cases.yaml:4: cases[0] ("typo"): expect must be one of allow, block, ask, modify (got "deny")',
      "error: bad-cases.yaml:5: cases[1]: tool is required",
      expect.stringMatching(/^error: bad-cases\.yaml:9: cases\[2\]: message is not a valid regular expression: /),
      'error: bad.json: cases[0]: agent must be one of claude-code, gemini-cli, codex, copilot-cli (got "cursor")',
      "error: missing.yaml: does not exist",
    ]);
    expect(code).toBe(2);
  }, 60_000);

  it("a project without fixture files is a usage error", async () => {
    const cwd = project({});
    const { code, stderr } = await runCli(["test", "--cwd", cwd]);
    expect(stderr).toContain(`error: no fixture files in ${cwd}: write toolgate.test.yaml`);
    expect(code).toBe(2);
  }, 60_000);

  it("spends no budget and records nothing: two runs give the same verdicts, and the store and decisions log stay untouched", async () => {
    const cwd = makeTempDir("repo", "policy-test-budget-");
    writeFiles(cwd, {
      "toolgate.config.mjs": `export default { store: "file", decisions: { log: ".toolgate/decisions.jsonl" }, session: { id: "s1" }, plugins: [[${pluginPath("budget")}, { limit: 1 }]] };`,
      // The cases of a file share a session: the second call finds the budget used by the first.
      "toolgate.test.yaml":
        "cases:\n  - tool: search\n    expect: allow\n  - tool: search\n    expect: block\n    by: budget\n    message: 1 of 1 calls used\n",
    });
    for (const _ of [1, 2]) {
      const { code, stdout, stderr } = await runCli(["test", "--cwd", cwd]);
      expect(stderr).toBe("");
      expect(stdout).toContain("2 cases: 2 passed, 0 failed");
      expect(code).toBe(0);
    }
    // The file store may make its folder; nothing is written in it, and no decision is logged.
    expect(filesUnder(join(cwd, ".toolgate"))).toEqual([]);
  }, 60_000);
});
