import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { readJsonLines } from "./json-lines.js";

/**
 * The upstream server as a child process speaking newline-delimited JSON-RPC on its stdin and stdout,
 * handled as lines: what is sent is written as given, what is read is handed over unparsed.
 */
export interface StdioUpstream {
  /** Writes one message (a serialised JSON-RPC message, without the newline). */
  send(line: string): void;
  /** Each line the server writes; set before the server is asked anything. */
  onLine: (line: string) => void;
  /** The server exited or closed its stdout. */
  onClose: () => void;
  /** Ends the server: stdin closed, then SIGTERM, then SIGKILL, two seconds apart (as the MCP SDK does). */
  close(): Promise<void>;
}

/**
 * Starts the server with this process's whole environment (MCP client configs set the server's
 * variables on the command they launch, which is us) and its stderr on ours. Rejects when it cannot
 * be started (command not found).
 */
export async function spawnStdioUpstream(command: string, args: readonly string[]): Promise<StdioUpstream> {
  const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"], env: process.env, windowsHide: true });
  const [event] = await Promise.race([once(child, "spawn").then(() => ["spawn"]), once(child, "error")]);
  if (event !== "spawn") throw event as Error;
  const upstream: StdioUpstream = {
    send: (line) => void child.stdin!.write(`${line}\n`),
    onLine: () => {},
    onClose: () => {},
    close: () => stop(child),
  };
  readJsonLines(child.stdout!, (line) => upstream.onLine(line));
  // A write to a server that already exited fails with EPIPE; its exit is reported through onClose.
  child.stdin!.on("error", () => {});
  child.on("error", () => {});
  child.once("close", () => upstream.onClose());
  return upstream;
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const closed = once(child, "close").then(() => true);
  const within = (ms: number) => Promise.race([closed, new Promise<false>((resolve) => setTimeout(() => resolve(false), ms).unref())]);
  child.stdin!.end();
  if (await within(2000)) return;
  child.kill("SIGTERM");
  if (await within(2000)) return;
  child.kill("SIGKILL");
}
