import { spawn, type ChildProcess } from "node:child_process";
import { request as httpRequest } from "node:http";
import { mainPath, tsxLoader } from "./hook-harness.js";

export interface Served {
  url: string;
  child: ChildProcess;
  stderr(): string;
  stop(): Promise<void>;
}

/** `toolgate serve --port 0 <args>` in a real child process; resolves once it listens. */
export function startServe(args: readonly string[]): Promise<Served> {
  const child = spawn(process.execPath, ["--import", tsxLoader, mainPath, "serve", "--port", "0", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const url = /listening on (\S+)/.exec(stdout)?.[1];
      if (url)
        resolve({
          url,
          child,
          stderr: () => stderr,
          stop: () =>
            new Promise((done) => {
              child.once("close", () => done());
              child.kill("SIGTERM");
            }),
        });
    });
    child.on("close", (code) => reject(new Error(`toolgate serve exited with ${code}: ${stderr}`)));
  });
}

export async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const response = await fetch(url, {
    method: "POST",
    body: typeof body === "string" ? body : JSON.stringify(body),
    headers: { "content-type": "application/json", ...headers },
  });
  return { status: response.status, body: await response.json() };
}

/** Polls `probe` until it returns true or `timeoutMs` passes. */
export async function eventually(probe: () => Promise<boolean>, timeoutMs = 8000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`not true within ${timeoutMs} ms`);
}

export interface RawRequest {
  method?: string | undefined;
  path?: string | undefined;
  /** Sent as they are; `host: undefined` sends no Host header at all, `host: ""` an empty one. */
  headers?: Record<string, string | undefined>;
  body?: string | undefined;
}

/** One request through node:http, which (unlike fetch) sends any Host, Origin or Sec-Fetch-* header, or none. */
export function rawRequest(url: string, request: RawRequest): Promise<{ status: number; body: any }> {
  const { hostname, port } = new URL(url);
  const headers = request.headers ?? {};
  // Node sets Host itself unless told not to; a test that names one (or none) gets exactly that.
  const setHost = !("host" in headers);
  const sent = Object.fromEntries(Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== undefined));
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      { hostname: hostname.replace(/^\[|\]$/g, ""), port, method: request.method ?? "POST", path: request.path ?? "/v1/check", headers: sent, setHost },
      (response) => {
        let text = "";
        response.on("data", (chunk: Buffer) => (text += chunk.toString()));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body: text === "" ? undefined : JSON.parse(text) }));
      },
    );
    outgoing.on("error", reject);
    outgoing.end(request.body);
  });
}
