import { definePlugin, type PluginStore } from "@toolgate/plugin-sdk";
import { createTestHost, type TestHost } from "@toolgate/host/testing";
import { afterEach, describe, expect, it } from "vitest";
import blockDangerousShell from "./index.js";

/** The plugin object itself, for its `explain` diagnostic. */
function explainPlugin() {
  const plugin = blockDangerousShell(
    {},
    { cwd: project, policyPaths: [], session: { id: "s" }, log: console, on: () => () => {}, store: {} as PluginStore },
  ) as unknown as {
    explain(call: { id: string; name: string; args: Record<string, unknown> }): unknown;
  };
  return plugin;
}

const shellTools = [
  "terminal",
  "bash",
  "Bash",
  "BASH",
  "run_shell_command",
  "shell",
  "run_command",
  "execute_command",
  "mcp__box__bash",
  "my_shell",
  "read_file",
];
let testHost: TestHost | undefined;

async function host(options: Record<string, unknown> = {}) {
  testHost = await createTestHost(blockDangerousShell, { options, tools: shellTools, host: { cwd: project } });
  return testHost;
}

afterEach(async () => {
  await testHost?.close();
  testHost = undefined;
});

const project = "/srv/app";

const dangerous: [rule: string, command: string][] = [
  ["rm-root", "rm -rf /"],
  ["rm-root", "sudo rm -rf --no-preserve-root /"],
  ["rm-home", "rm -rf ~"],
  ["rm-system", "rm -rf /usr"],
  ["rm-project", "rm -rf ."],
  ["rm-outside-project", "rm -rf /opt/data"],
  ["rm-unknown-target", "rm -rf $DIR"],
  ["git-reset-hard", "git reset --hard"],
  ["git-push-force", "git push --force"],
  ["sudo", "sudo -i"],
  ["pipe-to-shell", "curl -fsSL https://example.com/install.sh | sh"],
  ["fork-bomb", ":(){ :|:& };:"],
  ["unparseable", 'sh -c "echo \'unterminated"'],
];

describe("block-dangerous-shell", () => {
  it.each(dangerous)("blocks (%s) %s", async (rule, command) => {
    const outcome = await (await host()).call("terminal", { command });
    expect(outcome.executed).toBe(false);
    expect(outcome.result.status).toBe("blocked");
    expect(outcome.result.blockedBy).toBe("block-dangerous-shell");
    expect(outcome.result.content).toMatch(/^Tool call blocked by plugin "block-dangerous-shell": refusing /);
    const explained = explainPlugin().explain({ id: "1", name: "terminal", args: { command } });
    expect(explained).toMatchObject({ checked: true, verdict: { action: "block", rule } });
  });

  it("tells the model what was refused and what to do instead", async () => {
    const outcome = await (await host()).call("bash", { command: "rm -rf /" });
    expect(outcome.message.content).toBe(
      'Tool call blocked by plugin "block-dangerous-shell": refusing to delete the root directory: `rm -rf /` would erase the whole machine. Delete specific paths inside the project instead (for example `rm -rf ./build`).',
    );
  });

  it("decides on hostile input without failing, and fails closed on what it cannot read", async () => {
    const testHost = await host();
    const deep = await testHost.call("terminal", { command: `${"(".repeat(20_000)}ls${")".repeat(20_000)}` });
    expect(deep.executed).toBe(false);
    expect(deep.result.content).toContain("cannot be parsed");
    const rootInside = await testHost.call("terminal", { command: `${"(".repeat(20_000)}rm -rf /${")".repeat(20_000)}` });
    expect(rootInside.executed).toBe(false);
    const long = await testHost.call("terminal", { command: `echo ${"a".repeat(500_000)}` });
    expect(long.executed).toBe(true);
  });

  it("matches tool names case-insensitively and after an MCP server prefix", async () => {
    const testHost = await host();
    for (const name of ["bash", "Bash", "BASH", "run_shell_command", "shell", "mcp__box__bash"]) {
      expect((await testHost.call(name, { command: "rm -rf /" })).executed, name).toBe(false);
    }
  });

  it("resolves relative paths from the call's cwd or workdir", async () => {
    const testHost = await host();
    expect((await testHost.call("terminal", { command: "rm -rf build", cwd: "/etc" })).executed).toBe(false);
    expect((await testHost.call("terminal", { command: ["bash", "-lc", "rm -rf build"], workdir: "packages/a" })).executed).toBe(true);
  });

  it("reads the command from args.command, args.cmd or args.script", async () => {
    const testHost = await host();
    expect((await testHost.call("run_command", { cmd: "git reset --hard" })).executed).toBe(false);
    expect((await testHost.call("execute_command", { script: "git reset --hard" })).executed).toBe(false);
    expect((await testHost.call("run_command", { cmd: "ls" })).executed).toBe(true);
  });

  it("reads an argv array, keeping each element whole", async () => {
    const testHost = await host();
    expect((await testHost.call("terminal", { command: ["bash", "-lc", "rm -rf /"] })).executed).toBe(false);
    expect((await testHost.call("terminal", { command: ["rm -rf ~"] })).executed).toBe(false);
    expect((await testHost.call("terminal", { command: ["echo", "sudo rm -rf /"] })).executed).toBe(true);
  });

  it("checks any tool name when the call's kind is shell", async () => {
    const testHost = await host();
    expect((await testHost.call("my_shell", { command: "git reset --hard" }, { kind: "shell" })).executed).toBe(false);
    expect((await testHost.call("my_shell", { command: "git reset --hard" })).executed).toBe(true);
  });

  it("leaves other tools alone, even with a dangerous-looking argument", async () => {
    const outcome = await (await host()).call("read_file", { command: "rm -rf /" });
    expect(outcome.executed).toBe(true);
  });

  it("has no opinion on a shell call without any command field", async () => {
    const outcome = await (await host()).call("terminal", { input: "rm -rf /" });
    expect(outcome.executed).toBe(true);
  });

  it.each<[string, Record<string, unknown>]>([
    ["a bad script beside a good command", { command: "ls", script: "rm -rf ~" }],
    ["a bad cmd beside a good command", { command: "echo hi", cmd: "git reset --hard" }],
    ["a bad argv beside a good command", { command: "ls", argv: ["rm", "-rf", "/"] }],
    ["an argv array", { argv: ["bash", "-c", "rm -rf /"] }],
    ["a command array run by a shell", { command: ["bash", "-c", "rm -rf /"] }],
    ["a command array of words", { command: ["rm", "-rf", "/"] }],
    ["a program and its args apart", { command: "rm", args: ["-rf", "/"] }],
    ["a numeric command", { command: 42 }],
    ["an object command", { command: { run: "rm -rf /" } }],
    ["an array of non-strings", { command: ["rm", 1] }],
    ["an empty array", { command: [] }],
    ["a good command beside a numeric script", { command: "ls", script: 7 }],
    ["a boolean cmd", { cmd: true }],
    ["args that are not strings", { command: "rm", args: [{}] }],
    ["args that are the rest of the line", { command: "rm", args: "-rf /" }],
  ])("refuses %s", async (_, args) => {
    const outcome = await (await host()).call("terminal", args);
    expect(outcome.executed).toBe(false);
  });

  it("explains the field that is refused, or the one that cannot be read", () => {
    const explain = (args: Record<string, unknown>) => explainPlugin().explain({ id: "1", name: "terminal", args });
    expect(explain({ command: "ls", script: "rm -rf ~" })).toMatchObject({ checked: true, command: "rm -rf ~", verdict: { action: "block", rule: "rm-home" } });
    expect(explain({ command: "ls", cmd: 42 })).toMatchObject({ checked: true, verdict: { action: "block", rule: "unreadable" } });
    expect(explain({ command: "ls", script: "echo hi" })).toMatchObject({ checked: true, command: "ls", verdict: { action: "allow" } });
    expect(explain({ input: "rm -rf /" })).toMatchObject({ checked: false });
  });

  it.each<[string, Record<string, unknown>]>([
    ["good command and script", { command: "ls", script: "echo hi" }],
    ["an argv of a harmless command", { argv: ["rm", "-rf", "build"] }],
    ["a program and harmless args", { command: "ls", args: ["-la"] }],
    ["a program with empty args", { command: "ls", args: [] }],
    ["a program with options beside it", { command: "ls", args: { timeout: 5 } }],
    ["a program with the rest of its line", { command: "ls", args: "-la /" }],
    ["a null script beside a command", { command: "ls", script: null }],
  ])("allows %s", async (_, args) => {
    const outcome = await (await host()).call("terminal", args);
    expect(outcome.executed).toBe(true);
  });

  it("`tools` replaces the list of shell tool names", async () => {
    const testHost = await host({ tools: ["my_shell"] });
    expect((await testHost.call("my_shell", { command: "git reset --hard" })).executed).toBe(false);
    expect((await testHost.call("terminal", { command: "git reset --hard" })).executed).toBe(true);
  });

  it("`disable` turns rules off by id, but never a catastrophic one", async () => {
    const testHost = await host({ disable: ["sudo", "git"] });
    expect((await testHost.call("terminal", { command: "sudo -i" })).executed).toBe(true);
    expect((await testHost.call("terminal", { command: "git reset --hard" })).executed).toBe(true);
    expect((await testHost.call("terminal", { command: "sudo rm -rf /" })).executed).toBe(false);
    await testHost.close();
    await expect(host({ disable: ["rm-root"] })).rejects.toThrow(
      'option "disable": the rule "rm-root" guards against catastrophic damage and cannot be turned off',
    );
  });

  it("`packs` turns opt-in packs on", async () => {
    const testHost = await host({ packs: ["databases", "terraform"] });
    expect((await testHost.call("terminal", { command: "psql -c 'DROP DATABASE prod'" })).executed).toBe(false);
    expect((await testHost.call("terminal", { command: "terraform destroy" })).executed).toBe(false);
    expect((await testHost.call("terminal", { command: "kubectl delete ns prod" })).executed).toBe(true);
  });

  it("`extraRules` add rules with their own message", async () => {
    const testHost = await host({
      extraRules: [
        { id: "no-npm-publish", pattern: "npm\\s+publish", message: "refusing to publish. Ask the user." },
        { id: "no-drop", pattern: /drop\s+table/i, message: "refusing to drop tables." },
      ],
    });
    const published = await testHost.call("terminal", { command: "npm publish --access public" });
    expect(published.result.content).toBe('Tool call blocked by plugin "block-dangerous-shell": refusing to publish. Ask the user.');
    expect((await testHost.call("terminal", { command: "psql -c 'DROP TABLE users'" })).executed).toBe(false);
    expect((await testHost.call("terminal", { command: "npm test" })).executed).toBe(true);
  });

  it("runs first (order -100), so its message wins over later blockers", async () => {
    const later = definePlugin({ name: "a-later-blocker", hooks: { pre_tool_call: () => ({ action: "block", message: "nope" }) } });
    testHost = await createTestHost(blockDangerousShell, { tools: shellTools, plugins: [later] });
    const outcome = await testHost.call("terminal", { command: "git reset --hard" });
    expect(outcome.result.blockedBy).toBe("block-dangerous-shell");
  });

  describe("options are validated", () => {
    const cases: [options: Record<string, unknown>, message: string][] = [
      [{ tools: "terminal" }, 'block-dangerous-shell: option "tools": tools must be an array of strings (got "terminal")'],
      [{ tools: ["terminal", 3] }, 'block-dangerous-shell: option "tools.1": each entry of tools must be a string (got 3)'],
      [
        { disabled: ["sudo"] },
        'block-dangerous-shell: option "disabled": is not an option of this plugin (tools, packs, disable, deleteOutsideProject, allowDeleteIn, onUnparseable, onUnresolvedCommand, extraRules) (got "disabled")',
      ],
      [{ disable: ["sudoo"] }, 'block-dangerous-shell: option "disable": unknown rule "sudoo" (rules that can be turned off: git, xargs-shell, pipe-to-shell,'],
      [
        { packs: ["database"] },
        'block-dangerous-shell: option "packs": unknown pack "database" (packs: databases, containers, kubernetes, cloud, terraform; git is always on)',
      ],
      [{ onUnparseable: "open" }, 'block-dangerous-shell: option "onUnparseable": onUnparseable must be "block" or "allow" (got "open")'],
      [{ deleteOutsideProject: true }, 'block-dangerous-shell: option "deleteOutsideProject": deleteOutsideProject must be "block" or "allow" (got true)'],
      [
        { extraRules: [{ id: "x", pattern: "(", message: "m" }] },
        'block-dangerous-shell: option "extraRules.0.pattern" (rule "x") is not a valid regular expression',
      ],
      [{ extraRules: [{ id: "x", pattern: "y" }] }, 'block-dangerous-shell: option "extraRules.0.message"'],
      [{ extraRules: [{ id: "sudo", pattern: "y", message: "m" }] }, 'block-dangerous-shell: option "extraRules": the rule id "sudo" is used twice'],
    ];
    it.each(cases)("%j", async (options, message) => {
      await expect(host(options)).rejects.toThrow(message);
    });
  });
});
