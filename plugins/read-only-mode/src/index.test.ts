import { createTestHost, type TestHost, type TestHostOptions } from "@toolgate/host/testing";
import { afterEach, describe, expect, it } from "vitest";
import readOnlyMode from "./index.js";

let testHost: TestHost | undefined;

async function host(options: Record<string, unknown> = {}, extra: TestHostOptions = {}) {
  testHost = await createTestHost(readOnlyMode, { options, tools: [...writers, ...readers, "run"], ...extra });
  return testHost;
}

afterEach(async () => {
  await testHost?.close();
  testHost = undefined;
});

const writers = [
  "write_file",
  "WriteFile",
  "edit_file",
  "str_replace_based_edit_tool",
  "delete_file",
  "removeItem",
  "create_issue",
  "move_file",
  "rename_branch",
  "update_record",
  "apply_patch",
  "append_log",
  "mkdir",
  "upload_asset",
  "db_insert",
  "drop_table",
  "terminal",
  "run_terminal_cmd",
  "shell",
  "bash",
  "exec",
  "execute_command",
  "mcp__github__create_pull_request",
];
const readers = ["read_file", "list_dir", "search", "grep", "glob", "get_weather", "fetch_url", "view_image", "mcp__github__get_issue"];

describe("read-only-mode", () => {
  it.each(writers)("blocks %s", async (name) => {
    const outcome = await (await host()).call(name, { path: "x" });
    expect(outcome.executed).toBe(false);
    expect(outcome.result.blockedBy).toBe("read-only-mode");
    expect(outcome.message.content).toBe(
      `Tool call blocked by plugin "read-only-mode": this session is read-only: "${name}" can change things. Use read-only tools (read, list, search) instead.`,
    );
  });

  it.each(readers)("allows %s", async (name) => {
    const outcome = await (await host()).call(name, { path: "x" });
    expect(outcome.executed).toBe(true);
    expect(outcome.result.status).toBe("ok");
  });

  it("blocks every call whose kind is shell, whatever the tool's name", async () => {
    const testHost = await host();
    expect((await testHost.call("run", { command: "ls" }, { kind: "shell" })).executed).toBe(false);
    expect((await testHost.call("run", { command: "ls" })).executed).toBe(true);
  });

  // The coding agents' own tool names, with the kinds `toolgate hook` gives them.
  it.each([
    ["Bash", "shell"],
    ["bash", "shell"],
    ["run_shell_command", "shell"],
    ["shell", "shell"],
    ["BASH", undefined],
    ["Write", "write"],
    ["write_file", "write"],
    ["Edit", "edit"],
    ["MultiEdit", "edit"],
    ["NotebookEdit", "edit"],
    ["replace", "edit"],
    ["apply_patch", "edit"],
    ["Run", "shell"],
    ["Save", "write"],
    ["Change", "EDIT"],
  ] as const)("blocks %s (kind %s), in any case and by kind", async (name, kind) => {
    testHost = await createTestHost(readOnlyMode, { tools: [name] });
    const outcome = await testHost.call(name, { command: "ls" }, kind === undefined ? {} : { kind });
    expect(outcome.executed).toBe(false);
    expect(outcome.result.blockedBy).toBe("read-only-mode");
  });

  it.each([
    ["Read", "read"],
    ["Grep", "read"],
    ["glob", "read"],
    ["WebFetch", "web"],
    ["mcp__docs__search", "mcp"],
  ] as const)("allows %s (kind %s)", async (name, kind) => {
    testHost = await createTestHost(readOnlyMode, { tools: [name] });
    expect((await testHost.call(name, {}, { kind })).executed).toBe(true);
  });

  it("`allow` matches tool names in any case", async () => {
    const testHost = await host({ allow: ["BASH"] }, { tools: ["bash"] });
    expect((await testHost.call("bash", { command: "ls" }, { kind: "shell" })).executed).toBe(true);
  });

  it("`allow` lets named tools through, even shell calls", async () => {
    const testHost = await host({ allow: ["create_issue", "run"] });
    expect((await testHost.call("create_issue", {})).executed).toBe(true);
    expect((await testHost.call("run", { command: "ls" }, { kind: "shell" })).executed).toBe(true);
    expect((await testHost.call("write_file", {})).executed).toBe(false);
  });

  it("`writePattern` replaces the default, case-insensitively when given as a string", async () => {
    const testHost = await host({ writePattern: "^(save|commit)" }, { tools: ["SaveNote", "write_file"] });
    const saved = await testHost.call("SaveNote", {});
    expect(saved.result.blockedBy).toBe("read-only-mode");
    expect(saved.executed).toBe(false);
    expect((await testHost.call("write_file", {})).executed).toBe(true);
  });

  it("`writePattern` as a RegExp keeps its own flags", async () => {
    testHost = await createTestHost(readOnlyMode, { options: { writePattern: /^Save/g }, tools: ["SaveNote", "saveNote"] });
    expect((await testHost.call("SaveNote", {})).result.blockedBy).toBe("read-only-mode");
    expect((await testHost.call("SaveNote", {})).result.blockedBy).toBe("read-only-mode"); // no lastIndex left over from `g`
    expect((await testHost.call("saveNote", {})).executed).toBe(true);
  });

  it("`message` replaces the text; {tool} names the tool", async () => {
    const outcome = await (await host({ message: "no changes during the review ({tool})" })).call("edit_file", {});
    expect(outcome.message.content).toBe('Tool call blocked by plugin "read-only-mode": no changes during the review (edit_file)');
  });

  it("check() gives the same verdict without running anything", async () => {
    const verdict = await (await host()).check("delete_file", { path: "x" });
    expect(verdict).toMatchObject({ action: "block", plugin: "read-only-mode" });
  });

  describe("options are validated", () => {
    const cases: [options: Record<string, unknown>, message: string][] = [
      [{ writePattern: "(" }, 'read-only-mode: option "writePattern" is not a valid regular expression'],
      [{ writePattern: 3 }, 'read-only-mode: option "writePattern": writePattern must be a non-empty regular expression source string or a RegExp (got 3)'],
      [{ allow: "read_file" }, 'read-only-mode: option "allow": allow must be an array of tool names (got "read_file")'],
      [{ message: "" }, 'read-only-mode: option "message": message must not be empty'],
      [{ allowed: ["x"] }, 'read-only-mode: option "allowed": is not an option of this plugin (writePattern, allow, message)'],
    ];
    it.each(cases)("%j", async (options, message) => {
      await expect(host(options)).rejects.toThrow(message);
    });
  });
});
