import { timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { ToolCall, Verdict } from "@toolgate/plugin-sdk";
import { agentProtocols, isAgentName } from "../agents/agents.js";
import { answerHookRequest, loadFailure, readHookRequest } from "../hook/answer-hook.js";
import type { AgentProtocol } from "../agents/agent-protocol.js";
import { isToolgateError, kindOfTool, toolKindAgents, type SessionOptions } from "@toolgate/host";
import { describeThrown } from "@toolgate/host/internal";
import { checkAnswer, type CheckAnswer } from "./check-answer.js";
import type { Generation, LiveHost } from "./live-host.js";
import { allowedHosts, createRequestGuard, type RequestGuard } from "./request-guard.js";
import { BodyTooLarge, HttpError, readBodyWithin } from "./read-body.js";
import { describeStray } from "./stray-errors.js";

/** Past this a hook body is not read but drained and denied (a Write of a large file is the common case). */
const maxBodyBytes = 8 * 1024 * 1024;
const notListening = { status: 421, error: "the server is not listening yet" } as const;

export interface HookServerOptions {
  live: LiveHost;
  /** Required as `Authorization: Bearer <token>` on every request when set. */
  token?: string | undefined;
  /** The address given to `listen` (`--host`): a `Host` header naming it is accepted, besides the loopback names. */
  host?: string | undefined;
}

/**
 * The decisions of `toolgate hook` over HTTP:
 * - `POST /v1/hooks/<agent>`: the agent's hook JSON in, the JSON its command hook would print out
 *   (Claude Code's `type: "http"` hooks post here);
 * - `POST /v1/check`: `{ "call": { id, name, args, kind? }, "agent"?, "session"?: { id, user? } }` in, `{ "verdict": … }` out
 *   (`agent` also names the agent in the call's session, as `toolgate hook <agent>` does);
 *   (with `"shadow": { verdict, source, message? }` when a shadow participant would have decided otherwise);
 *   a call without `kind` gets the one `agent`'s hook (or, without `agent`, any agent's) gives its tool;
 * - `GET /v1/health`: the plugins and whether the server can decide.
 *
 * Requests a web page could make are refused before anything else (see `RequestGuard`): the allowed
 * `Host` values are fixed once the server listens, as they hold its port.
 */
export function createHookServer(options: HookServerOptions): Server {
  const { live } = options;
  const expected = options.token === undefined ? undefined : Buffer.from(`Bearer ${options.token}`);

  async function route(request: IncomingMessage): Promise<unknown> {
    const path = (request.url ?? "/").split("?", 1)[0]!;
    if (request.method === "GET" && path === "/v1/health") return health(live.current);
    if (request.method !== "POST") throw new HttpError(404, `no route ${request.method} ${path}`);
    if (path === "/v1/check") {
      const body = await readBodyWithin(request, maxBodyBytes);
      if (body instanceof BodyTooLarge) return { verdict: { action: "block", message: `toolgate could not decide: ${body.message}`, args: {} } };
      return check(parseJson(body));
    }
    const agent = /^\/v1\/hooks\/([\w-]+)$/.exec(path)?.[1];
    if (agent !== undefined && isAgentName(agent)) {
      const protocol = agentProtocols[agent];
      const body = await readBodyWithin(request, maxBodyBytes);
      // The agent reads anything but a 200 with its deny as "no decision", and runs the tool.
      if (body instanceof BodyTooLarge) return protocol.denyForFailure(`${protocol.name} hook input: ${body.message}`, undefined).body ?? {};
      return hook(protocol, body);
    }
    throw new HttpError(
      404,
      `no route POST ${path} (hooks: ${Object.keys(agentProtocols)
        .map((name) => `/v1/hooks/${name}`)
        .join(", ")}; /v1/check)`,
    );
  }

  async function hook(protocol: AgentProtocol, text: string): Promise<unknown> {
    const read = readHookRequest(protocol, text);
    if ("answer" in read) return read.answer.body ?? {};
    const { request } = read;
    return withGeneration(async (generation) => {
      const failure = blockingFailure(generation);
      if (generation.host === undefined || failure !== undefined) return protocol.denyForFailure(failure?.message ?? "no host", request.event).body ?? {};
      try {
        return (await answerHookRequest(generation.host, protocol, request)).body ?? {};
      } catch (error) {
        return protocol.denyForFailure(describeThrown(error), request.event).body ?? {};
      }
    });
  }

  async function check(body: unknown): Promise<CheckAnswer> {
    const { call: given, session, agent } = (body ?? {}) as { call?: ToolCall; session?: SessionOptions; agent?: unknown };
    if (typeof given !== "object" || given === null)
      throw new HttpError(400, 'the body must be { "call": { "id", "name", "args" }, "agent"?: "claude-code", "session"?: { "id" } }');
    const call = withAgentKind(given, agent);
    return withGeneration(async (generation) => {
      // A plugin that failed to load is the host's gate to answer (onPluginError), in every surface's words.
      const failure = blockingFailure(generation);
      if (generation.host === undefined || failure !== undefined) return { verdict: failureVerdict(failure, call) };
      try {
        const named = sessionNamingAgent(session, agent as string | undefined);
        return checkAnswer(await generation.host.checkToolCall(call, named === undefined ? {} : { session: named }));
      } catch (error) {
        if (isToolgateError(error) && error.code === "INVALID_CALL") throw new HttpError(400, error.message);
        throw error;
      }
    });
  }

  async function withGeneration<T>(decide: (generation: Generation) => Promise<T>): Promise<T> {
    const generation = live.acquire();
    try {
      return await decide(generation);
    } finally {
      live.release(generation);
    }
  }

  let guard: RequestGuard | undefined;
  // requireHostHeader off: a request without Host gets this server's own 421 and JSON, not Node's bare 400.
  const server = createServer({ requireHostHeader: false }, (request, response) => {
    const started = performance.now();
    const refusal = guard === undefined ? notListening : guard.refuse(request.method, request.headers);
    if (refusal !== undefined) return refuse(response, refusal.status, refusal.error, started);
    if (expected !== undefined && !isAuthorized(request, expected)) return send(response, 401, { error: "missing or wrong bearer token" }, started);
    route(request).then(
      (value) => send(response, 200, value, started),
      (error: unknown) => send(response, error instanceof HttpError ? error.status : 500, { error: describeThrown(error) }, started),
    );
  });
  server.on("listening", () => {
    const address = server.address();
    if (typeof address === "object" && address !== null) guard = createRequestGuard(allowedHosts(address.port, options.host));
  });
  return server;
}

function health(generation: Generation): unknown {
  const { stray } = generation;
  const plugins =
    generation.host?.plugins.map(({ name, status, error }) =>
      stray?.plugin === name ? { name, status: "failed", error: describeStray(stray) } : { name, status, ...(error === undefined ? {} : { error }) },
    ) ?? [];
  const failure = generation.host === undefined ? generation.failure : (loadFailure(generation.host) ?? (stray && describeStray(stray)));
  return { ok: failure === undefined, plugins, ...(failure === undefined ? {} : { failure }) };
}

interface BlockingFailure {
  message: string;
  plugin?: string | undefined;
}

/**
 * Why this generation denies every call before its host is asked: it has none (a bad config), or a
 * plugin's error escaped its hooks and `onPluginError` is "block" (the plugin has failed, as if it had
 * failed to load, until the project reloads).
 */
function blockingFailure(generation: Generation): BlockingFailure | undefined {
  if (generation.host === undefined) return { message: generation.failure ?? "no host" };
  const { stray } = generation;
  if (stray === undefined || generation.host.onPluginError !== "block") return undefined;
  return {
    message: `${describeStray(stray)} (every call is blocked until the project reloads; onPluginError: "block")`,
    plugin: stray.plugin,
  };
}

function failureVerdict(failure: BlockingFailure | undefined, call: ToolCall): Verdict {
  const args = { ...(call.args ?? {}) };
  const message = `toolgate could not decide: ${failure?.message ?? "no host"}`;
  if (failure?.plugin === undefined) return { action: "block", message, args };
  return { action: "block", message, plugin: failure.plugin, source: { kind: "plugin", name: failure.plugin }, args };
}

function isAuthorized(request: IncomingMessage, expected: Buffer): boolean {
  const given = Buffer.from(request.headers.authorization ?? "");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** `Server-Timing` says how long the server spent on the request, from its arrival to the answer. */
function send(response: ServerResponse, status: number, value: unknown, started: number): void {
  const body = JSON.stringify(value);
  const timing = `toolgate;dur=${(performance.now() - started).toFixed(3)}`;
  response.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body), "server-timing": timing });
  response.end(body);
}

/** A refused request's body is not read: the connection closes after the answer rather than drain it. */
function refuse(response: ServerResponse, status: number, error: string, started: number): void {
  response.shouldKeepAlive = false;
  send(response, status, { error }, started);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new HttpError(400, "the body is not JSON");
  }
}

/**
 * The call's session with `agent` as its `agent` field, as `toolgate hook <agent>` names it (a Cedar
 * policy's principal, a CEL rule's `agent`): the body's `agent` speaks over a `session.agent`.
 */
function sessionNamingAgent(session: SessionOptions | undefined, agent: string | undefined): SessionOptions | undefined {
  if (session === undefined) return agent === undefined ? undefined : { agent };
  // A session that is not a record is left as it is, for the host to refuse with its own message.
  if (agent === undefined || typeof session !== "object" || session === null || Array.isArray(session)) return session;
  return { ...session, agent };
}

/** The call with the kind `agent`'s hook would give its tool, unless it names its own; an agent the table does not know is a 400. */
function withAgentKind(call: ToolCall, agent: unknown): ToolCall {
  if (agent !== undefined && (typeof agent !== "string" || !(toolKindAgents as readonly string[]).includes(agent)))
    throw new HttpError(400, `"agent" must be one of ${toolKindAgents.join(", ")}; got ${JSON.stringify(agent)}`);
  if (call.kind !== undefined || typeof call.name !== "string") return call;
  return { ...call, kind: kindOfTool(call.name, { agent: agent as string | undefined }) };
}
