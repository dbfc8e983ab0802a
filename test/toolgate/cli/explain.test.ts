import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHost } from "@toolgate/host";
import { makeTempDir, removeTempDirs, repoRoot, runCli, writeFiles } from "../../helpers/cli-harness.js";

afterAll(removeTempDirs);

const shellGuard = join(repoRoot, "plugins/block-dangerous-shell/src/index.ts");

// A second policy with a different answer per tool, so each plugin's own outcome shows.
const policyPlugin = `
export default {
  name: "policy",
  hooks: {
    pre_tool_call(call) {
      if (call.name === "write_file") return { action: "modify", args: { path: "/sandbox/" + call.args.path } };
      if (call.name === "deploy") return { action: "ask", message: "deploys need a human" };
      if (call.name === "read_file") return { action: "allow", reason: "reads are fine" };
    },
  },
};
`;
const brokenPlugin = `
export default {
  name: "zz-broken",
  hooks: { pre_tool_call(call) { if (call.name === "crash") throw new Error("boom"); if (call.name === "weird") return { action: "nope" }; } },
};
`;

interface JsonExplanation {
  call: { name: string; args: Record<string, unknown> };
  plugins: { plugin: string; outcome: string; message?: string; args?: Record<string, unknown>; details?: Record<string, unknown> }[];
  verdict: { action: string; plugin?: string; message?: string };
  failedPlugins: unknown[];
}

describe("toolgate explain", () => {
  let cwd: string;

  beforeAll(() => {
    cwd = makeTempDir("repo", "explain-");
    writeFiles(cwd, {
      "plugins/policy.mjs": policyPlugin,
      "plugins/broken.mjs": brokenPlugin,
      "toolgate.config.mjs": `export default { plugins: [${JSON.stringify(shellGuard)}] };`,
    });
  });

  async function explainJson(...args: string[]): Promise<JsonExplanation> {
    const { code, stdout, stderr } = await runCli(["explain", ...args, "--cwd", cwd, "--json"]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    return JSON.parse(stdout) as JsonExplanation;
  }

  it("prints each plugin's verdict, the shell guard's parse and the final verdict", async () => {
    const { code, stdout, stderr } = await runCli(["explain", "Bash", JSON.stringify({ command: "sudo bash -c 'cd / && rm -rf *'" }), "--cwd", cwd]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout).toContain("BLOCK   block-dangerous-shell: refusing to delete the root directory: `rm -rf *` (inside bash -c)");
    expect(stdout).toContain("NONE    policy");
    expect(stdout).toMatch(/commands:\n\s+sudo bash -c cd \/ && rm -rf \*\s+\[under sudo\]\n\s+cd \/\s+\(via bash -c\)\n\s+rm -rf \*\s+\(via bash -c\)/);
    expect(stdout).toContain("deletes: * → / (root)");
    expect(stdout).toContain("rule: rm-root");
    expect(stdout).toMatch(/verdict: BLOCK by block-dangerous-shell: refusing to delete the root directory/);
  });

  it("--json gives every plugin's outcome and the shell guard's parse", async () => {
    const explanation = await explainJson("terminal", JSON.stringify({ command: "git push --force origin main" }));
    expect(explanation.verdict).toMatchObject({ action: "block", plugin: "block-dangerous-shell" });
    const [guard, policy, broken] = explanation.plugins;
    expect(guard).toMatchObject({ plugin: "block-dangerous-shell", outcome: "block" });
    expect(guard!.message).toContain("--force-with-lease");
    expect(guard!.details).toMatchObject({
      checked: true,
      commands: [{ command: "git push --force origin main", via: [], wrappers: [] }],
      verdict: { action: "block", rule: "git-push-force" },
    });
    expect(policy).toMatchObject({ plugin: "policy", outcome: "none" });
    expect(broken).toMatchObject({ plugin: "zz-broken", outcome: "none" });
  });

  it("reports an allow with its reason, and the shell guard says when a call is not a shell call", async () => {
    const read = await explainJson("read_file", JSON.stringify({ path: "notes.txt" }));
    expect(read.plugins[1]).toMatchObject({ plugin: "policy", outcome: "allow", message: "reads are fine" });
    expect(read.plugins[0]!.details).toMatchObject({ checked: false });
    expect(read.verdict).toMatchObject({ action: "allow", plugin: "policy", message: "reads are fine" });
  });

  it("reports an ask", async () => {
    const deploy = await explainJson("deploy", "{}");
    expect(deploy.plugins[1]).toMatchObject({ outcome: "ask", message: "deploys need a human" });
    expect(deploy.verdict.action).toBe("ask");
  });

  it("reports a modify with the arguments it merged", async () => {
    const write = await explainJson("write_file", JSON.stringify({ path: "out.txt" }));
    expect(write.plugins[1]).toMatchObject({ outcome: "modify", args: { path: "/sandbox/out.txt" } });
  });

  it("a shell call that passes shows the parse and an allow", async () => {
    const explanation = await explainJson("anything", JSON.stringify({ command: "rm -rf ./build && ls" }), "--kind", "shell");
    expect(explanation.verdict.action).toBe("allow");
    expect(explanation.plugins[0]!.details).toMatchObject({
      checked: true,
      commands: [{ command: "rm -rf ./build" }, { command: "ls" }],
      deletes: [{ target: "./build", path: join(cwd, "build"), kind: "inside" }],
      verdict: { action: "allow" },
    });
  });

  it("a hook that throws is an error outcome, and the verdict fails closed as the gate does", async () => {
    const crash = await explainJson("crash", "{}");
    expect(crash.plugins[2]).toMatchObject({ plugin: "zz-broken", outcome: "error" });
    expect(crash.plugins[2]!.message).toContain("pre_tool_call threw: boom");
    expect(crash.verdict).toMatchObject({ action: "block", plugin: "zz-broken" });
  });

  it("an invalid hook result is an invalid outcome and no opinion", async () => {
    const weird = await explainJson("weird", "{}");
    expect(weird.plugins[2]).toMatchObject({ outcome: "invalid" });
    expect(weird.verdict.action).toBe("allow");
  });

  it("rejects args that are not a JSON object, naming the problem", async () => {
    const notJson = await runCli(["explain", "Bash", "{command: ls}", "--cwd", cwd]);
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toContain("<args> is not valid JSON");
    const notObject = await runCli(["explain", "Bash", '["ls"]', "--cwd", cwd]);
    expect(notObject.code).toBe(2);
    expect(notObject.stderr).toContain("<args> must be a JSON object");
  });
});

describe("host.explainToolCall", () => {
  it("runs the hooks like the gate but emits no events and remembers nothing", async () => {
    const calls: string[] = [];
    const host = await createHost({
      pluginsDir: false,
      configFile: false,
      logger: false,
      cwd: "/srv/app",
      tools: { terminal: { execute: () => "ran" } },
      plugins: [shellGuard, { name: "counter", hooks: { pre_tool_call: (call: { id: string }) => void calls.push(call.id) } } as never],
    });
    const events: string[] = [];
    host.events.on("*", (type) => events.push(String(type)));
    const call = { id: "c1", name: "terminal", args: { command: "rm -rf /" } };
    const explanation = await host.explainToolCall(call);
    expect(explanation.verdict.action).toBe("block");
    expect(events).toEqual([]);
    expect(calls).toEqual(["c1"]);
    // Nothing was remembered: a skipPreToolCallHook call afterwards is not treated as already gated.
    const result = await host.callTool(call, { skipPreToolCallHook: true });
    expect(result.status).toBe("blocked");
    expect(calls).toEqual(["c1", "c1"]);
    await expect(host.explainToolCall({ id: "", name: "x", args: {} })).rejects.toThrow(/malformed/);
    await host.close();
  });
});

describe("Plugin.explain", () => {
  it("must be a function: anything else makes the plugin fail validation, naming the field", async () => {
    const host = await createHost({
      pluginsDir: false,
      configFile: false,
      logger: false,
      plugins: [{ name: "bad-explain", explain: "not a function" } as never],
    });
    const [record] = host.plugins;
    expect(record?.status).toBe("failed");
    expect(String(record?.error)).toContain("explain");
    await host.close();
  });

  it("while a plugin fails to load, the verdict is BLOCK with the cause, as every surface decides (exit 1)", async () => {
    const failing = makeTempDir("os", "explain-failing-");
    writeFiles(failing, { "plugins/policy.mjs": policyPlugin, "plugins/typo.mjs": "export default { name: 'typo', hooks: { pre_tool_call( } };" });
    const text = await runCli(["explain", "read_file", '{"path": "a.txt"}', "--cwd", failing]);
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/ALLOW +policy: reads are fine/);
    expect(text.stdout).toMatch(/FAILED +typo: .*typo\.mjs/);
    expect(text.stdout).toMatch(/^verdict: BLOCK by typo: plugin "typo" failed to load: .*typo\.mjs: could not load the module/m);
    const json = await runCli(["explain", "read_file", '{"path": "a.txt"}', "--cwd", failing, "--json"]);
    expect(json.code).toBe(1);
    const explanation = JSON.parse(json.stdout) as JsonExplanation;
    expect(explanation.verdict).toMatchObject({ action: "block", plugin: "typo", message: expect.stringContaining('plugin "typo" failed to load') });
    expect(explanation.failedPlugins).toEqual([{ plugin: "typo", error: expect.stringContaining("typo.mjs") }]);
  });

  it("a throwing explain is reported as details.error, and the verdict is unaffected", async () => {
    const host = await createHost({
      pluginsDir: false,
      configFile: false,
      logger: false,
      plugins: [
        {
          name: "flaky",
          hooks: { pre_tool_call: () => ({ action: "block", message: "no" }) },
          explain: () => {
            throw new Error("oops");
          },
        } as never,
      ],
    });
    const explanation = await host.explainToolCall({ id: "c", name: "t", args: {} });
    expect(explanation.plugins[0]).toMatchObject({ plugin: "flaky", outcome: "block", message: "no" });
    expect((explanation.plugins[0]!.details as { error: string }).error).toContain("explain threw: oops");
    expect(explanation.verdict).toMatchObject({ action: "block", plugin: "flaky" });
    await host.close();
  });
});
