import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTempProject, type TempProject } from "../../helpers/temp-project.js";
import { connectStdio, connectThroughProxy, filesystemServerPath, type Connection } from "../../helpers/proxy-harness.js";

/** Blocks writes to files named *secret*; stamps writes to *stamped*; crashes on paths with "crash". */
const policySource = `
export default {
  name: "fs-policy",
  hooks: {
    pre_tool_call(call) {
      const path = String(call.args.path ?? "");
      if (path.includes("crash")) throw new Error("policy exploded");
      if (call.name === "write_file" && path.includes("secret"))
        return { action: "block", message: "writing secret files is not allowed (" + call.kind + ")" };
      if (call.name === "write_file" && path.includes("stamped")) return { action: "modify", args: { content: "stamped by toolgate" } };
    },
  },
};
`;

/** Logs on every call, to console and straight to stdout, and records each hook run in calls.log. */
const noisySource = `
import { appendFileSync } from "node:fs";
import { join } from "node:path";
export default (_options, api) => ({
  name: "noisy",
  hooks: {
    pre_tool_call(call) {
      console.log("noisy: pre", call.name);
      process.stdout.write("noisy raw stdout line\\n");
      appendFileSync(join(api.cwd, "calls.log"), "pre " + call.id + " " + call.name + "\\n");
    },
    post_tool_call(call, result) {
      console.info("noisy: post", call.name, result.status);
      appendFileSync(join(api.cwd, "calls.log"), "post " + call.id + " " + call.name + " " + result.status + "\\n");
    },
  },
});
`;

/** A 1×1 PNG. */
const pixel = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");

let project: TempProject;
let dataDir: string;
let proxied: Connection;
let direct: Connection;

beforeAll(async () => {
  project = createTempProject({ "plugins/fs-policy.mjs": policySource, "plugins/noisy.mjs": noisySource });
  dataDir = realpathSync(mkdtempSync(join(tmpdir(), "toolgate-fs-")));
  writeFileSync(join(dataDir, "notes.txt"), "the server's own bytes\n");
  writeFileSync(join(dataDir, "pixel.png"), pixel);
  [proxied, direct] = await Promise.all([
    connectThroughProxy(project.dir, ["--", process.execPath, filesystemServerPath, dataDir]),
    connectStdio(process.execPath, [filesystemServerPath, dataDir]),
  ]);
});

afterAll(async () => {
  await Promise.all([proxied?.close(), direct?.close()]);
  project?.remove();
  rmSync(dataDir, { recursive: true, force: true });
});

function callLog(): string[] {
  return existsSync(project.path("calls.log")) ? readFileSync(project.path("calls.log"), "utf8").trim().split("\n") : [];
}

describe("toolgate mcp-proxy in front of @modelcontextprotocol/server-filesystem (MCP SDK client)", () => {
  it("passes the server's identity, capabilities and tools/list through", async () => {
    expect(proxied.client.getServerVersion()).toEqual(direct.client.getServerVersion());
    expect(proxied.client.getServerCapabilities()).toEqual(direct.client.getServerCapabilities());
    expect(await proxied.client.listTools()).toEqual(await direct.client.listTools());
  });

  it("a blocked write_file never happens and returns isError with the plugin's reason", async () => {
    const target = join(dataDir, "secret.txt");
    const result = (await proxied.client.callTool({ name: "write_file", arguments: { path: target, content: "x" } })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([{ type: "text", text: expect.stringContaining("writing secret files is not allowed (mcp)") }]);
    expect(result.content[0]).toMatchObject({ text: expect.stringContaining('plugin "fs-policy"') });
    expect(existsSync(target)).toBe(false);
  });

  it.each(["read_file", "read_text_file"])("%s returns the server's own result, deep-equal to a direct connection's", async (name) => {
    const args = { path: join(dataDir, "notes.txt") };
    const viaProxy = await proxied.client.callTool({ name, arguments: args });
    expect(viaProxy).toEqual(await direct.client.callTool({ name, arguments: args }));
    expect(JSON.stringify(viaProxy)).toContain("the server's own bytes");
  });

  it("read_media_file: the server's image content passes through untouched", async () => {
    const args = { path: join(dataDir, "pixel.png") };
    const viaProxy = await proxied.client.callTool({ name: "read_media_file", arguments: args });
    expect(viaProxy).toEqual(await direct.client.callTool({ name: "read_media_file", arguments: args }));
    expect(viaProxy.content).toEqual([expect.objectContaining({ type: "image", mimeType: "image/png", data: pixel.toString("base64") })]);
  });

  it("an allowed write happens, with the arguments as the plugins modified them", async () => {
    const plain = join(dataDir, "plain.txt");
    const stamped = join(dataDir, "stamped.txt");
    await proxied.client.callTool({ name: "write_file", arguments: { path: plain, content: "as sent" } });
    await proxied.client.callTool({ name: "write_file", arguments: { path: stamped, content: "as sent" } });
    expect(readFileSync(plain, "utf8")).toBe("as sent");
    expect(readFileSync(stamped, "utf8")).toBe("stamped by toolgate");
  });

  it("a server error passes through as the server's own result", async () => {
    const args = { path: join(dataDir, "missing.txt") };
    const viaProxy = await proxied.client.callTool({ name: "read_text_file", arguments: args });
    expect(viaProxy.isError).toBe(true);
    expect(viaProxy).toEqual(await direct.client.callTool({ name: "read_text_file", arguments: args }));
  });

  it("a hook that crashes blocks the call (fails closed)", async () => {
    const target = join(dataDir, "crash.txt");
    const result = (await proxied.client.callTool({ name: "write_file", arguments: { path: target, content: "x" } })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(result.content[0]).toMatchObject({ text: expect.stringContaining("policy exploded") });
    expect(existsSync(target)).toBe(false);
  });

  it("pre_tool_call runs once per call, post_tool_call once per executed call, and a plugin's stdout goes to stderr", async () => {
    const before = callLog().length;
    await proxied.client.callTool({ name: "list_directory", arguments: { path: dataDir } });
    await proxied.client.callTool({ name: "write_file", arguments: { path: join(dataDir, "secret-2.txt"), content: "x" } });
    const lines = callLog().slice(before);
    const [listId, writeId] = lines.filter((line) => line.startsWith("pre ")).map((line) => line.split(" ")[1]);
    expect(lines).toEqual([`pre ${listId} list_directory`, `post ${listId} list_directory ok`, `pre ${writeId} write_file`]);
    expect(proxied.stderr()).toContain("noisy: pre list_directory");
    expect(proxied.stderr()).toContain("noisy raw stdout line");
  });
});
