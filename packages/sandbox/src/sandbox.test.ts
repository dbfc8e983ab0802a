import { execFile } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { createHost, type DecisionRecord, type Host, type PermissionsConfig } from "@toolgate/host";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import sandbox, { probeSandbox, sandboxStatus } from "./index.js";

const run = promisify(execFile);
const status = sandboxStatus();
const skip = status.available ? false : `no sandbox can start here: ${"problem" in status ? status.problem : ""}`;

// Outside /tmp, which the sandbox replaces with a private one: the repository's git-ignored test/.tmp.
const worlds = join(dirname(fileURLToPath(import.meta.url)), "../../../test/.tmp");

/** A throwaway project and a fake home beside it, both under one private folder. */
function makeWorld() {
  mkdirSync(worlds, { recursive: true });
  const root = mkdtempSync(join(worlds, "sandbox-"));
  const project = join(root, "project");
  const home = join(root, "home");
  mkdirSync(join(project, "plugins"), { recursive: true });
  mkdirSync(home);
  writeFileSync(join(home, "sentinel"), "home\n");
  writeFileSync(join(project, "toolgate.config.json"), "{}\n");
  return { root, project, home };
}

/** A host with the sandbox and a `bash` tool that runs its command line with real bash in the project. */
async function shellHost(project: string, records: DecisionRecord[], protectPolicy: "block" | "off" = "off", permissions?: PermissionsConfig): Promise<Host> {
  const host = await createHost({
    cwd: project,
    ...(permissions === undefined ? {} : { permissions }),
    // The sandbox alone by default: the policy protection would refuse the writes to the policy it can read first.
    protectPolicy,
    pluginsDir: join(project, "plugins"),
    configFile: false,
    logger: false,
    plugins: [[sandbox, {}]],
    tools: {
      bash: {
        kind: "shell",
        execute: async ({ command }) => {
          try {
            const { stdout } = await run("bash", ["-c", String(command)], { cwd: project });
            return `exit 0\n${stdout}`;
          } catch (error) {
            const failed = error as { code: number; stdout: string; stderr: string };
            return `exit ${failed.code}\n${failed.stdout}${failed.stderr}`;
          }
        },
      },
    },
  });
  host.events.on("decision", (record) => records.push(record));
  return host;
}

describe.skipIf(skip)("@toolgate/sandbox through a real host and bash", () => {
  const world = makeWorld();
  const records: DecisionRecord[] = [];
  let host: Host;
  beforeAll(async () => {
    host = await shellHost(world.project, records);
  });
  afterAll(async () => {
    await host.close();
    rmSync(world.root, { recursive: true, force: true });
  });
  const call = async (command: string) => (await host.callTool({ id: `c${records.length}`, name: "bash", args: { command } })).content;

  it("lets a write inside the project happen and refuses one outside", async () => {
    const inside = await call(`echo made > built.txt && cat built.txt`);
    expect(inside).toBe("exit 0\nmade\n");
    expect(readFileSync(join(world.project, "built.txt"), "utf8")).toBe("made\n");
    const outside = await call(`echo pwned > ${join(world.home, "sentinel")}`);
    expect(outside).toMatch(/^exit 1\n.*Read-only file system/s);
    expect(readFileSync(join(world.home, "sentinel"), "utf8")).toBe("home\n");
  });

  it("keeps toolgate's own config and plugins folder read-only", async () => {
    expect(await call("echo '{\"plugins\":[]}' > toolgate.config.json")).toMatch(/Read-only file system/);
    expect(await call("echo 'export default {}' > plugins/evil.mjs")).toMatch(/Read-only file system/);
    expect(readFileSync(join(world.project, "toolgate.config.json"), "utf8")).toBe("{}\n");
    expect(existsSync(join(world.project, "plugins", "evil.mjs"))).toBe(false);
  });

  it("leaves the policy writes the reader can read to the protection, which refuses them before anything runs", async () => {
    const protectedHost = await shellHost(world.project, [], "block");
    try {
      const answer = await protectedHost.callTool({ id: "p", name: "bash", args: { command: "echo '{}' > toolgate.config.json" } });
      expect(answer.status).toBe("blocked");
      expect(answer.content).toMatch(/protectPolicy/);
    } finally {
      await protectedHost.close();
    }
  });

  it("passes the exit code, stdout, stderr and working folder through", async () => {
    expect(await call("pwd; echo err >&2; exit 7")).toBe(`exit 7\n${world.project}\nerr\n`);
  });

  it("gives the command a private /tmp and no network", async () => {
    const outsideTmp = mkdtempSync(join(tmpdir(), "toolgate-outside-"));
    try {
      // A name of this run's own: a file left in the real /tmp by an earlier run cannot fail this one.
      const probe = `toolgate-sandbox-probe-${process.pid}-${Date.now()}`;
      expect(await call(`echo x > /tmp/${probe} && ls -A /tmp`)).toBe(`exit 0\n${probe}\n`);
      expect(existsSync(`/tmp/${probe}`)).toBe(false);
    } finally {
      rmSync(outsideTmp, { recursive: true });
    }
  });

  it("cuts the network off: a server on the machine's loopback cannot be reached", async () => {
    const server = createServer((socket) => socket.end("hello\n"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const connect = `exec 3<>/dev/tcp/127.0.0.1/${port} && head -1 <&3`;
    try {
      expect((await run("bash", ["-c", connect])).stdout).toBe("hello\n");
      expect(await call(connect)).toMatch(/^exit 1\n.*Connection refused/s);
    } finally {
      server.close();
    }
  });

  it("records the call as contained, with the arguments the agent asked for", async () => {
    await call("true");
    const record = records.at(-1);
    expect(record?.contained).toBe(true);
    expect(record?.args).toBeUndefined();
    expect(record?.participants).toContainEqual(expect.objectContaining({ name: "sandbox", action: "modify" }));
  });
});

describe.skipIf(skip)("@toolgate/sandbox with permission rules", () => {
  const world = makeWorld();
  const records: DecisionRecord[] = [];
  let host: Host;
  beforeAll(async () => {
    host = await shellHost(world.project, records, "off", { ask: ["bash"], allow: ["bash:command=echo *"], deny: ["bash:command=*curl*"] });
  });
  afterAll(async () => {
    await host.close();
    rmSync(world.root, { recursive: true, force: true });
  });
  const call = async (command: string) => (await host.callTool({ id: `r${records.length}`, name: "bash", args: { command } })).content;

  it("an allow rule lifts the ask for a contained call it covers, and the call runs contained", async () => {
    expect(await call(`echo inside > made.txt`)).toBe("exit 0\n");
    expect(readFileSync(join(world.project, "made.txt"), "utf8")).toBe("inside\n");
    expect(await call(`echo pwned > ${join(world.home, "sentinel")}`)).toMatch(/^exit 1\n.*Read-only file system/s);
    expect(records.at(-1)).toMatchObject({ verdict: "allow", contained: true });
  });

  it("a command the allow does not cover is still asked, and a denied one still denied", async () => {
    expect(await call("ls")).toMatch(/needs approval \(ask rule "bash"\)/);
    expect(await call("echo x && curl http://127.0.0.1:9")).toMatch(/permission rule "bash:command=\*curl\*"/);
    expect(existsSync(join(world.project, "x"))).toBe(false);
  });
});

describe.skipIf(skip)("@toolgate/sandbox on a shell tool that takes an argv array", () => {
  const world = makeWorld();
  let host: Host;
  beforeAll(async () => {
    host = await createHost({
      cwd: world.project,
      protectPolicy: "off",
      pluginsDir: false,
      configFile: false,
      logger: false,
      plugins: [[sandbox, {}]],
      tools: {
        exec: {
          kind: "shell",
          execute: async ({ argv }) => {
            const [program, ...rest] = argv as string[];
            try {
              await run(program as string, rest, { cwd: world.project });
              return "exit 0";
            } catch (error) {
              return `exit ${(error as { code: number }).code}`;
            }
          },
        },
      },
    });
  });
  afterAll(async () => {
    await host.close();
    rmSync(world.root, { recursive: true, force: true });
  });

  it("runs the argv inside: a write in the project lands, one in the home folder does not", async () => {
    const inside = await host.callTool({ id: "a1", name: "exec", args: { argv: ["touch", join(world.project, "argv-inside")] } });
    const outside = await host.callTool({ id: "a2", name: "exec", args: { argv: ["touch", join(world.home, "argv-outside")] } });
    expect([inside.content, outside.content]).toEqual(["exit 0", "exit 1"]);
    expect(existsSync(join(world.project, "argv-inside"))).toBe(true);
    expect(existsSync(join(world.home, "argv-outside"))).toBe(false);
  });
});

describe("when no sandbox can start", () => {
  it("names what to install", () => {
    const probed = probeSandbox({ PATH: "/nonexistent" });
    expect(probed).toMatchObject({ available: false, problem: expect.stringMatching(/bubblewrap \(bwrap\) is not installed|Linux only/) });
    expect("advice" in probed && probed.advice).toMatch(/apt-get install bubblewrap|Linux/);
  });

  it("reports a bwrap that cannot start a sandbox", () => {
    const bin = mkdtempSync(join(tmpdir(), "toolgate-fake-bwrap-"));
    writeFileSync(join(bin, "bwrap"), "#!/bin/sh\necho 'bwrap: No permissions to create new namespace' >&2\nexit 1\n");
    chmodSync(join(bin, "bwrap"), 0o755);
    try {
      const probed = probeSandbox({ PATH: `${bin}:/usr/bin:/bin` });
      expect(probed).toMatchObject({ available: false, problem: expect.stringContaining("No permissions to create new namespace") });
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  });
});
