import { join } from "node:path";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../helpers/cli-harness.js";
import { connectThroughProxy, type Connection } from "../../helpers/proxy-harness.js";
import { makeWorld, noSandbox, type World } from "./world.js";

const shellServer = join(repoRoot, "test/host/sandbox/fixtures/shell-server.mjs");

describe.skipIf(noSandbox)("toolgate mcp-proxy with the sandbox, before an MCP server's shell tools", () => {
  let world: World;
  let proxied: Connection;
  beforeAll(async () => {
    world = makeWorld("mcp");
    proxied = await connectThroughProxy(world.project, ["--", process.execPath, shellServer, world.project]);
  });
  afterAll(async () => {
    await proxied?.close();
    world?.remove();
  });
  const call = async (name: string, args: Record<string, unknown>) =>
    ((await proxied.client.callTool({ name, arguments: args })) as CallToolResult).content.map((part) => (part.type === "text" ? part.text : "")).join("");

  it("run_command: the write inside happens, the write outside fails", async () => {
    const text = await call("run_command", { command: world.command });
    expect(text).toMatch(/^exit 1\n.*x\.txt: Read-only file system/s);
    expect(world.effects()).toEqual({ inside: true, outside: false });
  });

  it("exec (a program and its argument array): the same", async () => {
    const outsideFile = join(world.outside, "y.txt");
    expect(await call("exec", { command: "touch", args: ["exec-inside.txt", outsideFile] })).toMatch(/^exit 1\n.*y\.txt.*Read-only file system/s);
    expect(await call("exec", { command: "ls", args: ["exec-inside.txt"] })).toBe("exit 0\nexec-inside.txt\n");
    expect(world.effects().outside).toBe(false);
  });
});
