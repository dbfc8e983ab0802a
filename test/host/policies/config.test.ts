import { createHost } from "@toolgate/host";
import { afterEach, describe, expect, it } from "vitest";
import { createTempProject, type TempProject } from "../../helpers/temp-project.js";

const projects: TempProject[] = [];
afterEach(() => {
  for (const project of projects.splice(0)) project.remove();
});

function project(files: Record<string, string>): TempProject {
  const created = createTempProject(files);
  projects.push(created);
  return created;
}

const echo = { echo: { execute: (args: Record<string, unknown>) => JSON.stringify(args) } };

describe("toolgate.config.json and toolgate.config.yaml", () => {
  it("a YAML config's rules and hooks decide calls, and the host names the file", async () => {
    const dir = project({
      "toolgate.config.yaml": ["permissions:", "  deny:", '    - "echo:text=*secret*"', "hooks:", "  pre_tool_call:", "    - command: exit 0", ""].join("\n"),
    }).dir;
    const host = await createHost({ cwd: dir, pluginsDir: false, tools: echo, logger: false });
    expect(host.configPath).toMatch(/toolgate\.config\.yaml$/);
    const denied = await host.callTool({ id: "1", name: "echo", args: { text: "my SECRET" } });
    expect(denied.status).toBe("blocked");
    expect((await host.callTool({ id: "2", name: "echo", args: { text: "hello" } })).status).toBe("ok");
    expect(host.plugins.map((record) => record.policy?.kind)).toEqual(["command", "rule"]);
    await host.close();
  });

  it("a JSON config is read with the same schema", async () => {
    const dir = project({ "toolgate.config.json": JSON.stringify({ permissions: { ask: ["echo"] } }) }).dir;
    const host = await createHost({ cwd: dir, pluginsDir: false, tools: echo, logger: false, onAsk: () => false });
    const verdict = await host.checkToolCall({ id: "1", name: "echo", args: {} });
    expect(verdict).toMatchObject({ action: "ask", source: { kind: "rule", name: "echo" } });
    await host.close();
  });

  it.each([
    [{ hooks: { pre_tool_call: [{ command: "x", timeout: "10" }] } }, "toolgate.config.json", "hooks.pre_tool_call[0].timeout"],
    [{ hooks: { pre_tool_call: [{ type: "http", url: "ftp://x" }] } }, "toolgate.config.json", "hooks.pre_tool_call[0].url"],
    [{ hooks: { post_tool_call: [{ type: "model", model: "gpt-4o" }] } }, "toolgate.config.json", "hooks.post_tool_call[0].model"],
    [{ hooks: { pre_tool_call: [{ type: "shell", command: "x" }] } }, "toolgate.config.json", "hooks.pre_tool_call[0].type"],
    [{ hooks: { pre_tool_call: [{ command: "x", matcher: "(" }] } }, "toolgate.config.json", "hooks.pre_tool_call[0].matcher"],
    [{ permissions: { deny: ["bash:command"] } }, "toolgate.config.json", "permissions.deny[0]"],
    [{ permissions: { block: ["bash"] } }, "toolgate.config.json", "permissions.block"],
  ])("a bad entry names the file and the key path (%j)", async (config, file, keyPath) => {
    const dir = project({ [file]: JSON.stringify(config) }).dir;
    const error = await createHost({ cwd: dir, pluginsDir: false, logger: false }).catch((thrown: Error) => thrown);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain(file);
    expect((error as Error).message).toContain(keyPath);
  });

  it.each(["*", " * ", "", ".*"])("a matcher of %j is accepted and matches every tool, as in Claude Code's settings", async (matcher) => {
    const dir = project({ "toolgate.config.json": JSON.stringify({ hooks: { pre_tool_call: [{ matcher, command: "exit 2" }] } }) }).dir;
    const host = await createHost({ cwd: dir, pluginsDir: false, tools: echo, logger: false });
    for (const name of ["echo", "Bash", "mcp__fs__write_file"])
      expect(await host.checkToolCall({ id: name, name, args: {} })).toMatchObject({ action: "block", source: { kind: "command", name: "exit 2" } });
    await host.close();
  });

  it.each(["(", "**", "[a-"])("a matcher of %j that is neither * nor a regular expression is refused, saying what would do", async (matcher) => {
    const dir = project({ "toolgate.config.json": JSON.stringify({ hooks: { pre_tool_call: [{ matcher, command: "exit 2" }] } }) }).dir;
    await expect(createHost({ cwd: dir, pluginsDir: false, logger: false })).rejects.toThrow(
      /hooks\.pre_tool_call\[0\]\.matcher must be "\*" or a valid regular expression over the tool name/,
    );
  });

  it("YAML that does not parse names the file", async () => {
    const dir = project({ "toolgate.config.yaml": "permissions: [unclosed" }).dir;
    await expect(createHost({ cwd: dir, pluginsDir: false, logger: false })).rejects.toThrow(/toolgate\.config\.yaml .*could not be parsed/);
  });
});
