import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { post, startServe, type Served } from "../../helpers/serve-harness.js";
import { bash, makeWorld, noSandbox, type World } from "./world.js";

describe.skipIf(noSandbox)("toolgate serve with the sandbox", () => {
  let world: World;
  let served: Served;
  beforeAll(async () => {
    world = makeWorld("serve");
    served = await startServe(["--cwd", world.project]);
  });
  afterAll(async () => {
    await served?.stop();
    world?.remove();
  });

  it("POST /v1/check answers a shell call with the contained command: its write inside happens, its write outside fails", async () => {
    const answer = await post(`${served.url}/v1/check`, { call: { id: "c1", name: "Bash", args: { command: world.command }, kind: "shell" } });
    expect(answer.status).toBe(200);
    expect(answer.body.verdict).toMatchObject({ action: "allow", contained: true });
    const command = answer.body.verdict.args.command as string;
    expect(command).toMatch(/^\/\S*bwrap /);
    const ran = await bash(command, world.project);
    expect(ran.stderr).toMatch(/x\.txt: Read-only file system/);
    expect(world.effects()).toEqual({ inside: true, outside: false });
  });

  it("POST /v1/hooks/claude-code answers with the contained command in updatedInput", async () => {
    const other = makeWorld("serve-hook");
    const servedHook = await startServe(["--cwd", other.project]);
    try {
      const answer = await post(`${servedHook.url}/v1/hooks/claude-code`, {
        hook_event_name: "PreToolUse",
        session_id: "s-serve",
        transcript_path: "",
        cwd: other.project,
        tool_name: "Bash",
        tool_input: { command: other.command },
        tool_use_id: "toolu_1",
      });
      expect(answer.status).toBe(200);
      const output = answer.body.hookSpecificOutput as { permissionDecision: string; updatedInput: { command: string } };
      expect(output.permissionDecision).toBe("allow");
      await bash(output.updatedInput.command, other.project);
      expect(other.effects()).toEqual({ inside: true, outside: false });
    } finally {
      await servedHook.stop();
      other.remove();
    }
  });
});
