import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseAnswer, runHook } from "../../helpers/hook-harness.js";
import { bash, makeWorld, noSandbox, sandboxPlugin, type World } from "./world.js";

const noCurl = spawnSync("curl", ["--version"]).status === 0 ? false : "curl is not installed";

describe.skipIf(noSandbox || noCurl)("toolgate hook claude-code with network: { allow }", () => {
  let world: World;
  let server: Server;
  let port = 0;
  beforeAll(async () => {
    world = makeWorld("net-hook", { plugins: [[sandboxPlugin, { network: { allow: ["localhost"] } }]] });
    server = createServer((req, res) => res.end(`reached ${req.url}\n`));
    port = await new Promise<number>((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)));
  });
  afterAll(() => {
    server.close();
    world.remove();
  });

  it("the rewritten command, run after the hook process has exited, starts its own proxy and reaches the listed host only", async () => {
    const command = `curl -sS http://localhost:${port}/hello && curl -sS -p http://elsewhere.invalid:${port}/`;
    const hook = await runHook("claude-code", {
      hook_event_name: "PreToolUse",
      session_id: "s-net",
      transcript_path: "",
      cwd: world.project,
      tool_name: "Bash",
      tool_input: { command },
      tool_use_id: "toolu_net",
    });
    // runHook resolved: the hook process has exited, and nothing it started is left to serve the command.
    expect(hook.code, hook.stderr).toBe(0);
    const rewritten = (parseAnswer(hook).hookSpecificOutput as { updatedInput?: { command?: string } }).updatedInput?.command;
    expect(rewritten).toMatch(/^\/\S*node \/\S*network-runner\.mjs --allow localhost -- \/\S*bwrap .* --unshare-net /);
    const tmp = join(world.root, "tmp");
    mkdirSync(tmp);
    const ran = await bash(`TMPDIR=${tmp} ${rewritten}`, world.project);
    expect(ran.stdout).toBe(`reached /hello\n`);
    expect(ran.code).toBe(56);
    expect(ran.stderr).toContain("toolgate sandbox: the network is limited to listed hosts, and elsewhere.invalid is not one of them");
    expect(readdirSync(tmp)).toEqual([]);
  });
});
