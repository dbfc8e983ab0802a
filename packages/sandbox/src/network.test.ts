import { execFile, execFileSync, spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer as createHttpServer, type Server } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createHost, type Host } from "@toolgate/host";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import sandbox, { sandboxStatus } from "./index.js";
import type { SandboxOptions } from "./options.js";

const status = sandboxStatus();
const curl = spawnSync("curl", ["--version"]).status === 0;
const openssl = spawnSync("openssl", ["version"]).status === 0;
const skip = !status.available ? `no sandbox can start here: ${"problem" in status ? status.problem : ""}` : !curl ? "curl is not installed" : false;

// Outside /tmp, which the sandbox replaces with a private one: the repository's git-ignored test/.tmp.
const worlds = join(dirname(fileURLToPath(import.meta.url)), "../../../test/.tmp");

interface Ran {
  code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Runs a command line with real bash, as an agent's shell tool does, with `env` added; never throws. */
function bash(command: string, cwd: string, env: Record<string, string> = {}): Promise<Ran> {
  const began = performance.now();
  return new Promise((resolve) => {
    execFile("bash", ["-c", command], { cwd, env: { ...process.env, ...env }, timeout: 60_000 }, (error, stdout, stderr) => {
      const failed = error as (Error & { code?: number | string; signal?: string | null }) | null;
      const code = failed === null ? 0 : typeof failed.code === "number" ? failed.code : null;
      resolve({ code, signal: failed?.signal ?? null, stdout, stderr, ms: performance.now() - began });
    });
  });
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)));
}

/** The command line the sandbox makes of `command` in `project` with `options`, through a real host. */
async function containedLine(host: Host, command: string): Promise<string> {
  const verdict = await host.checkToolCall({ id: `n-${command.length}-${Math.random()}`, name: "bash", args: { command } });
  expect(verdict.action).toBe("allow");
  return String(verdict.args["command"]);
}

describe.skipIf(skip)("network: { allow } through a real host, bwrap, bash and curl", () => {
  const root = (mkdirSync(worlds, { recursive: true }), mkdtempSync(join(worlds, "sandbox-net-")));
  const project = join(root, "project");
  const runnerTmp = join(root, "tmp");
  // A name no process but the runner carries in its arguments, to find it after the command ended.
  const marker = `marker-${process.pid}-${Date.now()}.test`;
  const servers: Server[] = [];
  let listed = 0;
  let unlisted = 0;
  let secure = 0;
  let host: Host;

  const hostWith = (options: SandboxOptions & Record<string, unknown>) =>
    createHost({
      cwd: project,
      protectPolicy: "off",
      pluginsDir: join(project, "plugins"),
      configFile: false,
      logger: false,
      plugins: [[sandbox, options]],
      // Gated only (checkToolCall): the test runs the rewritten line itself, after the host decided.
      tools: { bash: { kind: "shell", execute: () => "not run here" } },
    });
  const run = async (command: string, env: Record<string, string> = {}) => bash(await containedLine(host, command), project, { TMPDIR: runnerTmp, ...env });

  beforeAll(async () => {
    mkdirSync(join(project, "plugins"), { recursive: true });
    mkdirSync(runnerTmp);
    const listedServer = createHttpServer((req, res) => res.end(`listed ${req.method} ${req.url}\n`));
    const unlistedServer = createHttpServer((_req, res) => res.end("unlisted\n"));
    servers.push(listedServer, unlistedServer);
    listed = await listen(listedServer);
    unlisted = await listen(unlistedServer);
    if (openssl) {
      execFileSync(
        "openssl",
        ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", join(root, "key.pem"), "-out", join(root, "cert.pem")].concat([
          "-subj",
          "/CN=localhost",
          "-days",
          "1",
        ]),
        { stdio: "ignore" },
      );
      const tls = createHttpsServer({ key: readFileSync(join(root, "key.pem")), cert: readFileSync(join(root, "cert.pem")) }, (_req, res) =>
        res.end("secure\n"),
      );
      servers.push(tls);
      secure = await listen(tls);
    }
    host = await hostWith({ network: { allow: ["localhost", marker] } });
  });
  afterAll(async () => {
    await host.close();
    for (const server of servers) server.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("rewrites the call into the runner, then bwrap with the network still unshared", async () => {
    const line = await containedLine(host, "true");
    expect(line).toMatch(/^\/\S*node \/\S*\/runner\/network-runner\.mjs --allow localhost --allow \S+ -- \/\S*bwrap /);
    expect(line).toContain(" --unshare-net ");
  });

  it("reaches a listed host over plain http (absolute URI) and through a CONNECT tunnel", async () => {
    const plain = await run(`curl -sS http://localhost:${listed}/a`);
    expect(plain).toMatchObject({ code: 0, stdout: "listed GET /a\n", stderr: "" });
    const tunnelled = await run(`curl -sS --proxytunnel http://localhost:${listed}/b`);
    expect(tunnelled).toMatchObject({ code: 0, stdout: "listed GET /b\n", stderr: "" });
  });

  it.skipIf(!openssl)("reaches a listed host over https", async () => {
    expect(await run(`curl -sS -k https://localhost:${secure}/`)).toMatchObject({ code: 0, stdout: "secure\n", stderr: "" });
  });

  it("refuses an unlisted host with a 403 that names it and the option to set, before any DNS lookup", async () => {
    // 127.0.0.1 is the same server as localhost, but only its name is listed; unlisted.invalid does not even resolve.
    const byAddress = await run(`curl -sS --noproxy '' -w '%{http_code}' http://127.0.0.1:${unlisted}/`);
    expect(byAddress.stdout).toMatch(/is not one of them; to allow it, add it to the sandbox's option network: \{ allow: \[\.\.\.\] \}.*\n403$/);
    expect(byAddress.stdout).toContain("127.0.0.1 is not one of them");
    const tunnel = await run(`curl -sS -p http://unlisted.invalid:${unlisted}/`);
    expect(tunnel.code).toBe(56);
    expect(tunnel.stderr).toContain("toolgate sandbox: the network is limited to listed hosts, and unlisted.invalid is not one of them");
    expect(tunnel.stderr).toContain("CONNECT tunnel failed, response 403");
    expect(tunnel.stdout).toBe("");
  });

  it("refuses a direct socket: the sandbox has no network of its own but a loopback", async () => {
    // Uncontained, the same line connects: the server is there.
    expect((await bash(`exec 3<>/dev/tcp/127.0.0.1/${unlisted} && echo connected`, project)).stdout).toBe("connected\n");
    const direct = await run(`exec 3<>/dev/tcp/127.0.0.1/${unlisted} && echo connected`);
    expect(direct.code).toBe(1);
    expect(direct.stdout).toBe("");
    expect(direct.stderr).toMatch(/Connection refused/);
    const curlDirect = await run(`curl -sS --noproxy '*' http://localhost:${listed}/`);
    expect(curlDirect.code).toBe(7);
  });

  it("passes the exit code, stdout, stderr and a signal through, and sets the proxy variables", async () => {
    expect(await run("echo out; echo err >&2; exit 7")).toMatchObject({ code: 7, signal: null, stdout: "out\n", stderr: "err\n" });
    const env = await run('printf "%s\\n" "$HTTP_PROXY" "$https_proxy" "$NO_PROXY"');
    expect(env.stdout).toMatch(/^http:\/\/127\.0\.0\.1:\d+\nhttp:\/\/127\.0\.0\.1:\d+\n127\.0\.0\.1,::1\n$/);
    // As with the network off: bubblewrap reports a command killed by a signal as 128 + its number.
    const offHost = await hostWith({});
    const off = await bash(await containedLine(offHost, "kill -TERM $$"), project);
    await offHost.close();
    expect(await run("kill -TERM $$")).toMatchObject({ code: off.code, signal: off.signal });
    expect(off.code).toBe(143);
  });

  it("ends the command, the proxy and its folder when the agent stops it with a signal", async () => {
    const child = spawn("bash", ["-c", await containedLine(host, "echo ready; sleep 30")], { cwd: project, env: { ...process.env, TMPDIR: runnerTmp } });
    await new Promise((resolve) => child.stdout.once("data", resolve));
    expect(readdirSync(runnerTmp)).toHaveLength(1);
    const began = performance.now();
    child.kill("SIGTERM");
    const [code, signal] = (await once(child, "exit")) as [number | null, string | null];
    expect({ code, signal }).toEqual({ code: null, signal: "SIGTERM" });
    expect(performance.now() - began).toBeLessThan(10_000);
    expect(readdirSync(runnerTmp)).toEqual([]);
    expect(spawnSync("pgrep", ["-f", runnerTmp]).stdout.toString()).toBe("");
  });

  it("leaves nothing behind: the proxy, its folder and the command's background processes end with the command", async () => {
    const during = await run("ls -A /tmp/.toolgate-network; (sleep 30 &); echo started");
    expect(during).toMatchObject({ code: 0, stdout: "proxy.sock\nstarted\n" });
    expect(during.ms).toBeLessThan(20_000);
    expect(readdirSync(runnerTmp)).toEqual([]);
    expect(spawnSync("pgrep", ["-f", marker]).stdout.toString()).toBe("");
    expect(spawnSync("pgrep", ["-f", runnerTmp]).stdout.toString()).toBe("");
  });

  it("runs with a Node that lives under /tmp, which the sandbox replaces with a private one", async () => {
    const nodeFolder = mkdtempSync("/tmp/toolgate-node-");
    try {
      const nodeInTmp = join(nodeFolder, "node");
      copyFileSync(process.execPath, nodeInTmp);
      chmodSync(nodeInTmp, 0o755);
      const line = await containedLine(host, `curl -sS http://localhost:${listed}/from-tmp`);
      expect(line.startsWith(`${process.execPath} `)).toBe(true);
      const ran = await bash(nodeInTmp + line.slice(process.execPath.length), project, { TMPDIR: runnerTmp });
      expect(ran).toMatchObject({ code: 0, stdout: "listed GET /from-tmp\n", stderr: "" });
    } finally {
      rmSync(nodeFolder, { recursive: true, force: true });
    }
  });

  it("fails closed: when the proxy cannot start, the command does not run", async () => {
    const failed = await run("touch ran.txt", { TMPDIR: join(root, "missing") });
    expect(failed.code).toBe(126);
    expect(failed.stderr).toMatch(/^toolgate sandbox: the network proxy for the allowed hosts could not start: .*; the command was not run\n$/);
    expect(existsSync(join(project, "ran.txt"))).toBe(false);
  });

  it("refuses bad entries in network.allow when the plugin is set up", async () => {
    for (const [allow, problem] of [
      [["http://example.com"], '"http://example.com" is not a host name'],
      [["*"], '"*" is not a host name'],
      [["a.*.com"], '"a.*.com" is not a host name'],
    ] as const) {
      const made = await hostWith({ network: { allow: [...allow] } });
      const listedPlugins = made.plugins.map((plugin) => `${plugin.status} ${String((plugin as { error?: unknown }).error)}`);
      await made.close();
      expect(listedPlugins).toHaveLength(1);
      expect(listedPlugins[0]).toMatch(/^failed /);
      expect(listedPlugins[0]).toContain(problem);
    }
  });
});

describe("the allow-list's runner without a sandbox around it", () => {
  const runner = fileURLToPath(new URL("../runner/network-runner.mjs", import.meta.url));
  it("refuses to run without bwrap and a command, saying what it expects", () => {
    const ran = spawnSync(process.execPath, [runner, "--allow", "localhost", "--", "echo", "hi"], { encoding: "utf8" });
    expect(ran.status).toBe(126);
    expect(ran.stdout).toBe("");
    expect(ran.stderr).toBe("toolgate sandbox: expected the absolute path of bwrap, its options, -- and a command; the command was not run\n");
  });
  it("refuses an entry that is not a host name", () => {
    const ran = spawnSync(process.execPath, [runner, "--allow", "a b", "--", "/usr/bin/bwrap", "--", "true"], { encoding: "utf8" });
    expect(ran.status).toBe(126);
    expect(ran.stderr).toContain('network.allow: "a b" is not a host name');
  });
});
