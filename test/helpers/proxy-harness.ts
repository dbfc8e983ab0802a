import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { repoRoot } from "./cli-harness.js";

const mainPath = join(repoRoot, "packages/toolgate/src/cli/main.ts");
const tsxLoader = pathToFileURL(join(repoRoot, "node_modules/tsx/dist/loader.mjs")).href;
export const echoServerPath = join(repoRoot, "test/toolgate/mcp-proxy/fixtures/echo-server.mjs");
export const filesystemServerPath = join(repoRoot, "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js");

/** `toolgate mcp-proxy --cwd <cwd> <upstream...>` as a command line (node, from source through tsx). */
export function proxyCommandLine(cwd: string, upstream: readonly string[]): { command: string; args: string[] } {
  return { command: process.execPath, args: ["--import", tsxLoader, mainPath, "mcp-proxy", "--cwd", cwd, ...upstream] };
}

export interface Connection {
  client: Client;
  /** The process the client spawned (the proxy, or the server itself). */
  pid: number | null;
  /** Everything the server process wrote to stderr so far. */
  stderr(): string;
  close(): Promise<void>;
}

/** An MCP SDK client (a fresh one by default) connected over stdio to a spawned server process. */
export async function connectStdio(
  command: string,
  args: readonly string[],
  client = new Client({ name: "toolgate-test", version: "1.0.0" }),
): Promise<Connection> {
  const transport = new StdioClientTransport({ command, args: [...args], stderr: "pipe", env: { ...stringEnv(), NO_COLOR: "1" } });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  await client.connect(transport);
  return { client, pid: transport.pid, stderr: () => stderr, close: () => client.close() };
}

export function connectThroughProxy(cwd: string, upstream: readonly string[], client?: Client): Promise<Connection> {
  const { command, args } = proxyCommandLine(cwd, upstream);
  return connectStdio(command, args, client);
}

export interface RawRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The proxy as a bare child process fed raw JSON-RPC lines: for what an SDK client hides (every byte on
 * stdout, the exit code). `after` runs once the initialize response has arrived, with a message writer
 * and a writer of raw lines; stdin is closed (the client disconnects) once `endAfterResponses` more lines have come back.
 */
export function runProxyRaw(
  cwd: string,
  upstream: readonly string[],
  after: (send: (message: object) => void, writeLine: (line: string) => void) => void,
  endAfterResponses = Number.POSITIVE_INFINITY,
): Promise<RawRun> {
  const { command, args } = proxyCommandLine(cwd, upstream);
  const child = spawn(command, args, { env: { ...process.env, NO_COLOR: "1" } });
  const send = (message: object) => child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
  let stdout = "";
  let stderr = "";
  let initialized = false;
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
    if (!initialized && stdout.includes('"id":0')) {
      initialized = true;
      send({ method: "notifications/initialized" });
      after(send, (line) => child.stdin.write(`${line}\n`));
    }
    if (stdout.trim().split("\n").length > endAfterResponses) child.stdin.end();
  });
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  send({ id: 0, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } });
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

function stringEnv(): Record<string, string> {
  return Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined));
}
