import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS, type ClientCapabilities } from "@modelcontextprotocol/sdk/types.js";
import { ToolgateError } from "@toolgate/host";
import { describeThrown } from "@toolgate/host/internal";
import { exitOnce } from "./exit-once.js";
import { isRequest, parseMessage, resultLine, type RpcMessage } from "./json-rpc.js";
import { readJsonLines } from "./json-lines.js";
import { openPolicy } from "./policy.js";
import { reserveStdoutForProtocol } from "./protocol-stdout.js";
import { RawRelay, type GatedCall } from "./raw-relay.js";
import type { McpProxyOptions } from "./run-mcp-proxy.js";
import { spawnStdioUpstream, type StdioUpstream } from "./stdio-upstream.js";
import { createToolCallGate } from "./tool-call-gate.js";
import { UpstreamHandshake, type UpstreamIdentity } from "./upstream-handshake.js";
import { describeUpstream } from "./upstream.js";

/** The client's side: lines read from stdin, held until the relay takes them. */
interface ClientInput {
  /** The client's first message (initialize), or undefined when stdin ended before one came. */
  first: Promise<{ line: string; message: RpcMessage } | undefined>;
  /** Hands every line after the first to `onLine`, the held ones first. */
  release(onLine: (line: string) => void): void;
  ended(): boolean;
}

/** `runMcpProxy` for a stdio upstream: the proxy initialises it itself, then relays raw lines. */
export async function runRawProxy(options: McpProxyOptions, target: { command: string; args: string[] }): Promise<number> {
  const { logger } = options;
  const protocolOut = reserveStdoutForProtocol();
  const toClient = (line: string) => void protocolOut.write(`${line}\n`);
  const input = readClient(logger);
  const first = await input.first;
  if (first === undefined) return 0;
  const name = describeUpstream(options.target);
  const { upstream, handshake, identity } = await startUpstream(
    target,
    { name: "toolgate-mcp-proxy", version: options.version },
    clientCapabilitiesOf(first.message),
    name,
  );
  const tools = await listTools(upstream, handshake, identity, name);
  const relay = new RawRelay({ upstream, toClient, logger });
  const gate = createToolCallGate<GatedCall>(relay.forwardCall);
  const policy = await openPolicy({ cwd: options.cwd, tools: gate.hostTools(tools), logger });
  if (!policy.ok) logger.error(`mcp-proxy: every tool call will be denied: ${policy.reason}`);

  return new Promise((resolve) => {
    const end = exitOnce(logger, () => [upstream.close(), policy.host?.close()], resolve);
    upstream.onClose = () => end(1, `mcp-proxy: the upstream MCP server (${name}) closed the connection; exiting`);
    process.stdout.once("error", (error) => end(1, `mcp-proxy: stdio failed: ${describeThrown(error)}`));
    relay.start(gate, policy);
    if (first.message.method === "initialize" && isRequest(first.message)) toClient(resultLine(first.message.id!, initializeResult(identity, first.message)));
    else relay.fromClient(first.line);
    for (const line of handshake.held) relay.fromUpstream(line);
    input.release((line) => relay.fromClient(line));
    if (input.ended()) end(0);
  });
}

function readClient(logger: McpProxyOptions["logger"]): ClientInput {
  const held: string[] = [];
  let onLine: ((line: string) => void) | undefined;
  let resolveFirst: (first: { line: string; message: RpcMessage } | undefined) => void = () => {};
  const first = new Promise<{ line: string; message: RpcMessage } | undefined>((resolve) => (resolveFirst = resolve));
  let firstSeen = false;
  let ended = false;
  readJsonLines(process.stdin, (line) => {
    if (onLine !== undefined) return onLine(line);
    if (firstSeen) return void held.push(line);
    const message = parseMessage(line);
    if (message === undefined) return logger.warn(`mcp-proxy: dropped a line from the client that is not one JSON-RPC message: ${line.slice(0, 200)}`);
    firstSeen = true;
    resolveFirst({ line, message });
  });
  process.stdin.once("end", () => {
    ended = true;
    resolveFirst(undefined);
  });
  return {
    first,
    release(handler) {
      for (const line of held.splice(0)) handler(line);
      onLine = handler;
    },
    ended: () => ended,
  };
}

async function startUpstream(
  target: { command: string; args: string[] },
  clientInfo: { name: string; version: string },
  capabilities: ClientCapabilities,
  name: string,
) {
  let upstream: StdioUpstream | undefined;
  try {
    upstream = await spawnStdioUpstream(target.command, target.args);
    const handshake = new UpstreamHandshake(upstream);
    const identity = await handshake.initialize(clientInfo, capabilities);
    return { upstream, handshake, identity };
  } catch (error) {
    await upstream?.close();
    // Stop reading stdin, or the process would stay up with nothing to serve.
    process.stdin.destroy();
    throw new ToolgateError("MCP_UPSTREAM_FAILED", `could not connect to the upstream MCP server (${name}): ${describeThrown(error)}`, { cause: error });
  }
}

/** The upstream's tools, every page. A failure stops the upstream: a spawned server must not outlive us. */
async function listTools(upstream: StdioUpstream, handshake: UpstreamHandshake, identity: UpstreamIdentity, name: string) {
  if (identity.capabilities.tools === undefined) return [];
  try {
    return await handshake.listTools();
  } catch (error) {
    await upstream.close();
    process.stdin.destroy();
    throw new ToolgateError("MCP_UPSTREAM_FAILED", `the upstream MCP server (${name}) could not list its tools: ${describeThrown(error)}`, { cause: error });
  }
}

/**
 * The answer to the client's initialize, as the MCP SDK's server words it: the upstream's identity and
 * capabilities, without `tasks` (a tool call run as a task would hand its result back through
 * tasks/result, past the gate), and the client's protocol version when it is one the SDK supports.
 */
function initializeResult(identity: UpstreamIdentity, request: RpcMessage): Record<string, unknown> {
  const requested = (request.params as { protocolVersion?: unknown } | undefined)?.protocolVersion;
  const { tasks: _tasks, ...capabilities } = identity.capabilities;
  return {
    protocolVersion: typeof requested === "string" && SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION,
    capabilities,
    serverInfo: identity.serverInfo ?? { name: "toolgate-mcp-proxy", version: "0.0.0" },
    ...(identity.instructions ? { instructions: identity.instructions } : {}),
  };
}

/** What the client said it supports, among what a server may ask a client for. */
function clientCapabilitiesOf(first: RpcMessage): ClientCapabilities {
  if (first.method !== "initialize") return {};
  const capabilities = (first.params as { capabilities?: ClientCapabilities } | undefined)?.capabilities;
  if (typeof capabilities !== "object" || capabilities === null) return {};
  const { roots, sampling, elicitation } = capabilities;
  return { ...(roots && { roots }), ...(sampling && { sampling }), ...(elicitation && { elicitation }) };
}
