import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTempProject, type TempProject } from "../../helpers/temp-project.js";
import { installedTool } from "../../helpers/installed-tool.js";
import { connectStdio, filesystemServerPath, proxyCommandLine } from "../../helpers/proxy-harness.js";
import { realClientTest } from "../../helpers/real-client.js";

const run = promisify(execFile);
// The Inspector declares Node 22 (its CLI runs on 20): installed on first use, not a workspace dependency.
const inspectorCli = await installedTool("@modelcontextprotocol/inspector", "1.0.3", "cli/build/cli.js");

const policySource = `
export default {
  name: "fs-policy",
  hooks: {
    pre_tool_call(call) {
      console.log("fs-policy checked", call.name);
      if (call.name === "write_file") return { action: "block", message: "this project is read-only for agents" };
    },
  },
};
`;

let project: TempProject;
let dataDir: string;
let configPath: string;

beforeAll(() => {
  project = createTempProject({ "plugins/fs-policy.mjs": policySource });
  dataDir = realpathSync(mkdtempSync(join(tmpdir(), "toolgate-inspector-")));
  writeFileSync(join(dataDir, "notes.txt"), "read me through the inspector\n");
  // The Inspector reads everything after a "--" in the server's arguments as its own operands, so the
  // proxy's command line goes in a script. The config has the mcpServers shape Claude Desktop uses.
  const { command, args } = proxyCommandLine(project.dir, ["--", process.execPath, filesystemServerPath, dataDir]);
  const script = project.path("toolgate-files.sh");
  writeFileSync(script, `#!/bin/sh\nexec ${[command, ...args].map((word) => `'${word}'`).join(" ")}\n`, { mode: 0o755 });
  configPath = project.path("mcp.json");
  writeFileSync(configPath, JSON.stringify({ mcpServers: { files: { command: script, args: [] } } }));
});

afterAll(() => {
  project?.remove();
  rmSync(dataDir, { recursive: true, force: true });
});

/** `mcp-inspector --cli --config mcp.json --server files <inspector args>`; its JSON answer from stdout. */
async function inspect(args: string[]): Promise<Record<string, unknown>> {
  const { stdout } = await run(process.execPath, [inspectorCli, "--cli", "--config", configPath, "--server", "files", ...args], {
    env: { ...process.env, NO_COLOR: "1" },
  });
  return JSON.parse(stdout.slice(stdout.indexOf("{")));
}

describe("the MCP Inspector CLI through toolgate mcp-proxy", realClientTest, () => {
  it("tools/call write_file is blocked: isError with the plugin's reason, and the file is not written", async () => {
    const target = join(dataDir, "written.txt");
    const result = await inspect(["--method", "tools/call", "--tool-name", "write_file", "--tool-arg", `path=${target}`, "--tool-arg", "content=x"]);
    expect(result).toEqual({ content: [{ type: "text", text: expect.stringContaining("this project is read-only for agents") }], isError: true });
    expect(existsSync(target)).toBe(false);
  });

  it("read_file and tools/list return what the server itself returns", async () => {
    const path = join(dataDir, "notes.txt");
    const [read, list] = await Promise.all([
      inspect(["--method", "tools/call", "--tool-name", "read_file", "--tool-arg", `path=${path}`]),
      inspect(["--method", "tools/list"]),
    ]);
    const direct = await connectStdio(process.execPath, [filesystemServerPath, dataDir]);
    try {
      expect(read).toEqual(await direct.client.callTool({ name: "read_file", arguments: { path } }));
      expect(list).toEqual(await direct.client.listTools());
      expect(readFileSync(path, "utf8")).toBe("read me through the inspector\n");
    } finally {
      await direct.close();
    }
  });
});
