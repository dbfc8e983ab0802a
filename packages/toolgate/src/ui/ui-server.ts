import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { describeThrown } from "@toolgate/host/internal";
import { createRecordTest, FilterError } from "../decisions/filter.js";
import { allowedHosts, createRequestGuard, type RequestGuard } from "../server/request-guard.js";
import type { Asset } from "./assets.js";
import { BadDiff, diffRecordedLog } from "./diff-log.js";
import { BadCall, explainRecordedCall } from "./explain-call.js";
import type { NumberedRecord, RecordHub } from "./record-hub.js";
import { HttpError, readBody } from "../server/read-body.js";

export interface UiServerOptions {
  hub: RecordHub;
  assets: ReadonlyMap<string, Asset>;
  /** The project whose plugins explain a recorded call. */
  cwd: string;
  /** The log shown, whose recorded calls the diff panel decides again. */
  logPath: string;
}

const maxBodyBytes = 1024 * 1024;
const defaultBacklog = 2000;
const heartbeatMs = 15_000;
const notListening = { status: 421, error: "the server is not listening yet" } as const;

// The page loads only its own files and talks only to this server; nothing it shows can run as code.
const securityHeaders = {
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
};

/**
 * The `toolgate ui` server: the page (`/`, `/app.js`, `/style.css`), the records as Server-Sent Events
 * (`GET /api/stream?tool=&verdict=&source=&session=&since=&last=`: a `backlog` event, then `records`
 * events as lines are appended), `POST /api/explain` for one recorded call, and `POST /api/diff`
 * (`{ base, head? }`, git refs) for the log's calls decided under two policies. The same guard as
 * `serve` refuses what another web page could send (a foreign Host, Origin or Sec-Fetch-Site, a POST
 * that is not JSON); the allowed Host values hold the port, so they are fixed once it listens.
 */
export function createUiServer(options: UiServerOptions): Server {
  let guard: RequestGuard | undefined;
  const server = createServer((request, response) => {
    const refusal = guard === undefined ? notListening : guard.refuse(request.method, request.headers);
    if (refusal !== undefined) return sendJson(response, refusal.status, { error: refusal.error });
    route(request, response).catch((error: unknown) => {
      const status = error instanceof HttpError ? error.status : 500;
      if (!response.headersSent) sendJson(response, status, { error: error instanceof Error ? error.message : describeThrown(error) });
      else response.end();
    });
  });
  server.on("listening", () => {
    const address = server.address();
    if (typeof address === "object" && address !== null) guard = createRequestGuard(allowedHosts(address.port, address.address));
  });

  async function route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? "/", "http://localhost");
    const asset = options.assets.get(url.pathname);
    if (request.method === "GET" && asset !== undefined) return send(response, 200, asset.type, asset.body);
    if (request.method === "GET" && url.pathname === "/api/stream") return stream(url.searchParams, request, response);
    if (request.method === "POST" && url.pathname === "/api/explain") return explain(request, response);
    if (request.method === "POST" && url.pathname === "/api/diff") return diff(request, response);
    throw new HttpError(404, `no route ${request.method} ${url.pathname}`);
  }

  function stream(query: URLSearchParams, request: IncomingMessage, response: ServerResponse): void {
    const matches = filterOf(query);
    const last = Number(query.get("last") ?? defaultBacklog);
    if (!Number.isInteger(last) || last < 0) throw new HttpError(400, `last=${query.get("last")}: expected a whole number of records`);
    response.writeHead(200, { ...securityHeaders, "content-type": "text/event-stream; charset=utf-8", connection: "keep-alive" });
    const event = (name: string, records: NumberedRecord[]) => response.write(`event: ${name}\ndata: ${JSON.stringify(records)}\n\n`);
    const unsubscribe = options.hub.subscribe(
      { matches, backlog: (records) => event("backlog", records), appended: (records) => event("records", records) },
      last,
    );
    const heartbeat = setInterval(() => response.write(": still here\n\n"), heartbeatMs);
    request.on("close", () => {
      clearInterval(heartbeat);
      unsubscribe();
    });
  }

  async function explain(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = await readJson(request);
    try {
      sendJson(response, 200, await explainRecordedCall(options.cwd, body));
    } catch (error) {
      if (error instanceof BadCall) throw new HttpError(400, error.message);
      throw new HttpError(500, `cannot explain the call: ${describeThrown(error)}`);
    }
  }

  async function diff(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = await readJson(request);
    try {
      sendJson(response, 200, await diffRecordedLog(options.cwd, options.logPath, body));
    } catch (error) {
      if (error instanceof BadDiff) throw new HttpError(400, error.message);
      throw new HttpError(500, `cannot compare the policies: ${describeThrown(error)}`);
    }
  }

  return server;
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  try {
    return JSON.parse(await readBody(request, maxBodyBytes));
  } catch (error) {
    throw error instanceof HttpError ? error : new HttpError(400, `the body is not JSON: ${describeThrown(error)}`);
  }
}

function filterOf(query: URLSearchParams) {
  const field = (name: string) => query.get(name) ?? undefined;
  try {
    return createRecordTest({ tool: field("tool"), verdict: field("verdict"), source: field("source"), session: field("session"), since: field("since") });
  } catch (error) {
    if (error instanceof FilterError) throw new HttpError(400, error.message.replace(/^--/, ""));
    throw error;
  }
}

function sendJson(response: ServerResponse, status: number, value: unknown): void {
  send(response, status, "application/json; charset=utf-8", Buffer.from(JSON.stringify(value)));
}

function send(response: ServerResponse, status: number, type: string, body: Buffer): void {
  response.writeHead(status, { ...securityHeaders, "content-type": type, "content-length": body.length });
  response.end(body);
}
