import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { createHost, type DecisionRecord, type Host } from "@toolgate/host";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeWorld, noSandbox, sandboxPlugin } from "./world.js";

const run = promisify(execFile);

/** What a tool's process did: its exit code and what it wrote. */
async function execArgv(argv: readonly string[], cwd: string): Promise<string> {
  try {
    const { stdout } = await run(argv[0]!, argv.slice(1), { cwd });
    return `exit 0\n${stdout}`;
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return `exit ${failed.code}\n${failed.stdout}${failed.stderr}`;
  }
}

describe.skipIf(noSandbox)("the library: shell tools that take an argv array, with the sandbox named in the project's config", () => {
  const world = makeWorld("library", { plugins: [sandboxPlugin], decisions: { log: false } });
  const records: DecisionRecord[] = [];
  let host: Host;
  beforeAll(async () => {
    host = await createHost({
      cwd: world.project,
      logger: false,
      tools: {
        // argv[0] is the program, run without a shell.
        exec: { kind: "shell", execute: async ({ argv }) => execArgv(argv as string[], world.project) },
        // MCP style: a program and its arguments apart.
        spawn: { kind: "shell", execute: async ({ command, args }) => execArgv([command as string, ...(args as string[])], world.project) },
      },
    });
    host.events.on("decision", (record) => records.push(record));
  });
  afterAll(async () => {
    await host.close();
    world.remove();
  });
  const call = async (name: string, args: Record<string, unknown>) => (await host.callTool({ id: `c${records.length}`, name, args })).content;
  const outsideFile = join(world.outside, "x.txt");

  it("argv ['bash', '-c', line]: the write inside happens, the write outside fails", async () => {
    expect(await call("exec", { argv: ["bash", "-c", world.command] })).toMatch(/^exit 1\n.*x\.txt: Read-only file system/s);
    expect(world.effects()).toEqual({ inside: true, outside: false });
    expect(records.at(-1)).toMatchObject({ contained: true, verdict: "allow" });
  });

  it("argv of a program without a shell, one call inside and one outside", async () => {
    expect(await call("exec", { argv: ["touch", "argv-inside.txt"] })).toBe("exit 0\n");
    expect(await call("exec", { argv: ["cp", "argv-inside.txt", outsideFile] })).toMatch(/^exit 1\n.*Read-only file system/s);
    expect(await call("exec", { argv: ["ls", "argv-inside.txt"] })).toBe("exit 0\nargv-inside.txt\n");
    expect(world.effects().outside).toBe(false);
  });

  it("a program and its argument array apart (command + args)", async () => {
    expect(await call("spawn", { command: "touch", args: ["split-inside.txt", outsideFile] })).toMatch(/^exit 1\n.*x\.txt.*Read-only file system/s);
    expect(await call("spawn", { command: "ls", args: ["split-inside.txt"] })).toBe("exit 0\nsplit-inside.txt\n");
    expect(world.effects().outside).toBe(false);
    expect(records.at(-1)).toMatchObject({ contained: true });
  });
});
