import { spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { outputOf, type ChildOutput } from "../helpers/child-output.js";
import { createTempProject, type TempProject } from "../helpers/temp-project.js";

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "../..");
const tsxLoader = pathToFileURL(join(repoRoot, "node_modules/tsx/dist/loader.mjs")).href;
let project: TempProject | undefined;
afterEach(() => project?.remove());

function runScript(path: string): Promise<ChildOutput> {
  return outputOf(spawn(process.execPath, ["--import", tsxLoader, path], { cwd: dirname(path), env: { ...process.env, FORCE_COLOR: "" } }));
}

// A program that speaks a line protocol on stdout (as a hook command or an MCP server does) and hosts a
// chatty plugin with the default logger.
const protocolProgram = `
import { createHost } from "@toolgate/host";

const chatty = (options, api) => {
  api.log.info("factory info");
  api.log.debug("factory debug");
  return {
    name: "chatty\\x1b[31m",
    hooks: {
      pre_tool_call(call, ctx) {
        ctx.log.info("hook info\\n[toolgate] forged line");
        ctx.log.warn("hook warn\\r\\x1b[2K");
        ctx.log.error("hook error", { detail: "\\x1b]0;title\\x07" });
      },
      pre_tool_cal() {},
    },
  };
};

const host = await createHost({ pluginsDir: false, configFile: false, plugins: [chatty], tools: { t: { execute: () => "done" } } });
const result = await host.callTool({ id: "1", name: "t", args: {} });
process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: 1, result }) + "\\n");
await host.close();
`;

describe("the default logger", () => {
  it("writes every level to stderr, escaped, one line each; stdout carries only the program's protocol", async () => {
    project = createTempProject({ "program.ts": protocolProgram });
    const { code, stdout, stderr } = await runScript(project.path("program.ts"));
    expect(code).toBe(0);
    expect(
      stdout
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line)),
    ).toEqual([{ jsonrpc: "2.0", id: 1, result: { callId: "1", name: "t", status: "ok", content: "done" } }]);

    const lines = stderr.split("\n").filter(Boolean);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the test looks for them
    expect(stderr).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/);
    expect(lines.every((line) => line.startsWith("[toolgate] "))).toBe(true);
    expect(lines).toContain("[toolgate] [inline plugin #1] factory info");
    expect(lines).toContain("[toolgate] [inline plugin #1] factory debug");
    expect(lines).toContain("[toolgate] [chatty\\x1b[31m] hook info\\n[toolgate] forged line");
    expect(lines).toContain("[toolgate] warn: [chatty\\x1b[31m] hook warn\\r\\x1b[2K");
    expect(lines).toContainEqual(expect.stringMatching(/^\[toolgate\] error: \[chatty\\x1b\[31m\] hook error \{ detail: '\\x1b\]0;title\\x07' \}$/i));
    expect(lines).toContainEqual(expect.stringMatching(/^\[toolgate\] warn: plugin "chatty\\x1b\[31m": unknown hook "pre_tool_cal"/));
    expect(lines.some((line) => line.startsWith("[toolgate] forged"))).toBe(false);
  });
});

// An isolated plugin prints from its worker thread; that must not reach the program's stdout either.
const isolatedProgram = `
import { createHost } from "@toolgate/host";

const host = await createHost({
  pluginsDir: false,
  configFile: false,
  plugins: [["./printer.mjs", {}, { isolation: "worker" }]],
  tools: { t: { execute: () => "done" } },
});
const result = await host.callTool({ id: "1", name: "t", args: {} });
process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: 1, result }) + "\\n");
// A worker's output reaches this thread as messages, after the hook's answer: give it time to arrive.
await new Promise((resolve) => setTimeout(resolve, 200));
await host.close();
`;

const printerPlugin = `
export default {
  name: "printer",
  hooks: {
    pre_tool_call() {
      console.log("printed by the plugin");
      process.stdout.write("written by the plugin\\n");
    },
  },
};
`;

describe("a plugin isolated in a worker thread", () => {
  it("prints to stderr: the program's stdout carries only its protocol", async () => {
    project = createTempProject({ "program.ts": isolatedProgram, "printer.mjs": printerPlugin });
    const { code, stdout, stderr } = await runScript(project.path("program.ts"));
    expect(code).toBe(0);
    expect(
      stdout
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line)),
    ).toEqual([{ jsonrpc: "2.0", id: 1, result: { callId: "1", name: "t", status: "ok", content: "done" } }]);
    expect(stderr).toContain("printed by the plugin");
    expect(stderr).toContain("written by the plugin");
  });
});
