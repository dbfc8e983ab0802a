import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../helpers/cli-harness.js";
import { createTempProject, type TempProject } from "../../helpers/temp-project.js";
import { connectStdio, connectThroughProxy, echoServerPath, runProxyRaw } from "../../helpers/proxy-harness.js";

const lenientServerPath = join(repoRoot, "test/toolgate/mcp-proxy/fixtures/lenient-server.mjs");

/** Bare tool globs hide a tool (matched case-insensitively); a rule with an argument condition does not. */
const config = JSON.stringify({ permissions: { deny: ["exit", "WAI*", "touch", "echo:text=secret*"] } });

let project: TempProject;
let http: ChildProcess | undefined;

beforeAll(() => {
  project = createTempProject({ "toolgate.config.json": config });
});

afterAll(() => {
  http?.kill();
  project?.remove();
});

describe("tools/list through toolgate mcp-proxy hides the tools a deny rule forbids outright", () => {
  it("a stdio upstream (the raw relay): exit and wait are not listed, echo (denied only for some arguments) is", async () => {
    const [proxied, direct] = await Promise.all([
      connectThroughProxy(project.dir, ["--", process.execPath, echoServerPath]),
      connectStdio(process.execPath, [echoServerPath]),
    ]);
    try {
      const all = (await direct.client.listTools()).tools.map((tool) => tool.name);
      expect(all).toEqual(expect.arrayContaining(["echo", "exit", "wait"]));
      const listed = (await proxied.client.listTools()).tools;
      expect(listed.map((tool) => tool.name)).toEqual(all.filter((name) => name !== "exit" && name !== "wait"));
      // What is listed is the server's own description of each tool, untouched.
      expect(listed).toEqual((await direct.client.listTools()).tools.filter((tool) => tool.name !== "exit" && tool.name !== "wait"));
      // A hidden tool called anyway is still denied by the rule, and the server (which exit would end) lives on.
      const called = await proxied.client.callTool({ name: "exit", arguments: {} });
      expect(called).toMatchObject({ isError: true, content: [{ text: expect.stringContaining('deny rule "exit"') }] });
      expect(await proxied.client.callTool({ name: "echo", arguments: { text: "secret plan" } })).toMatchObject({ isError: true });
      expect((await proxied.client.callTool({ name: "pid", arguments: {} })).isError).toBeFalsy();
    } finally {
      await Promise.all([proxied.close(), direct.close()]);
    }
  });

  it("an HTTP upstream (the SDK's server): touch is not listed", async () => {
    http = spawn(process.execPath, [lenientServerPath, "--http"], { stdio: ["ignore", "pipe", "inherit"] });
    const url = await new Promise<string>((resolve) => {
      let out = "";
      http!.stdout!.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        const found = /listening on (\S+)/.exec(out)?.[1];
        if (found) resolve(found);
      });
    });
    const run = await runProxyRaw(project.dir, ["--url", url], (send) => send({ id: 1, method: "tools/list" }), 1);
    const answer = run.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line))
      .find((message) => message.id === 1);
    expect(answer.result.tools.map((tool: { name: string }) => tool.name)).toEqual(["hello"]);
  });
});
