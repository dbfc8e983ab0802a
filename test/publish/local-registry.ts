import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** Package names served only from the local registry: never proxied, so a test cannot pick up a real release. */
const localOnlyPackages = ["toolgate", "@toolgate/*", "toolgate-plugin-*", "@*/toolgate-plugin-*"];

export interface LocalRegistry {
  /** `http://127.0.0.1:<port>/` */
  url: string;
  /** A user config for npm (`--userconfig`) with the registry and a token of a user who may publish. */
  npmrc: string;
  /** Everything the server printed, for failure messages. */
  output(): string;
  /** Stops the server; safe to call twice. */
  stop(): Promise<void>;
}

const serverScript = fileURLToPath(new URL("./registry-server.mjs", import.meta.url));
const startTimeoutMs = 30_000;

/**
 * Starts Verdaccio on 127.0.0.1 with its storage, config and auth in `dir`. Packages matching
 * `localOnlyPackages` are served only from its storage; a request for any other package is redirected
 * to `uplink` (registry-server.mjs).
 * Then registers a user (the same HTTP call `npm adduser` makes) and writes an npmrc with its token.
 */
export async function startLocalRegistry(dir: string, uplink: string): Promise<LocalRegistry> {
  mkdirSync(dir, { recursive: true });
  const configPath = join(dir, "config.yaml");
  writeFileSync(configPath, JSON.stringify(registryConfig(dir, uplink), null, 2)); // JSON is YAML
  const child = spawn(process.execPath, [serverScript, configPath, uplink, JSON.stringify(localOnlyPackages)], { cwd: dir, stdio: ["pipe", "pipe", "pipe"] });
  let output = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  const stop = () => stopProcess(child);
  try {
    const port = await waitForPort(child, () => output);
    const url = `http://127.0.0.1:${port}/`;
    const token = await addUser(url, "toolgate-e2e", "toolgate-e2e-password");
    const npmrc = join(dir, "npmrc");
    writeFileSync(npmrc, `registry=${url}\n//127.0.0.1:${port}/:_authToken=${token}\n`);
    return { url, npmrc, output: () => output, stop };
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}\nverdaccio output:\n${output}`, { cause: error });
  }
}

function registryConfig(dir: string, uplink: string) {
  const localOnly = { access: "$all", publish: "$authenticated", unpublish: "$authenticated" };
  return {
    storage: join(dir, "storage"),
    auth: { htpasswd: { file: join(dir, "htpasswd"), max_users: 10 } },
    uplinks: { upstream: { url: uplink, timeout: "60s", maxage: "30m" } },
    packages: {
      ...Object.fromEntries(localOnlyPackages.map((pattern) => [pattern, localOnly])),
      "**": { access: "$all", publish: "$authenticated", proxy: "upstream" },
    },
    web: { enable: false },
    max_body_size: "100mb",
    log: { type: "stdout", format: "pretty", level: "warn" },
  };
}

function waitForPort(child: ChildProcess, output: () => string): Promise<number> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => done(new Error(`verdaccio did not start within ${startTimeoutMs} ms`)), startTimeoutMs);
    const onData = () => {
      const match = /registry-port=(\d+)/.exec(output());
      if (match) done(undefined, Number(match[1]));
    };
    const onExit = (code: number | null) => done(new Error(`verdaccio exited with code ${code} before it listened`));
    function done(error?: Error, port?: number) {
      clearTimeout(timer);
      child.stdout?.off("data", onData);
      child.off("exit", onExit);
      if (error) reject(error);
      else resolve(port!);
    }
    child.stdout?.on("data", onData);
    child.once("exit", onExit);
  });
}

/** `npm adduser`'s request: PUT /-/user/org.couchdb.user:<name>; Verdaccio's htpasswd plugin registers the user. */
async function addUser(registryUrl: string, name: string, password: string): Promise<string> {
  const response = await fetch(new URL(`-/user/org.couchdb.user:${encodeURIComponent(name)}`, registryUrl), {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ _id: `org.couchdb.user:${name}`, name, password, type: "user", roles: [], date: new Date().toISOString() }),
  });
  const body = (await response.json().catch(() => ({}))) as { token?: string; error?: string };
  if (!response.ok || !body.token) throw new Error(`adding user ${name} failed: HTTP ${response.status} ${JSON.stringify(body)}`);
  return body.token;
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.stdin?.end();
  child.kill("SIGTERM");
  const killTimer = setTimeout(() => child.kill("SIGKILL"), 5_000);
  await exited;
  clearTimeout(killTimer);
}
