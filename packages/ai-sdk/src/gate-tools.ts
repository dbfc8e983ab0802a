import { blockMessage, type Host, type ToolCall, type ToolResult, type Verdict } from "@toolgate/host";
import { blockedToolOutput } from "./blocked-output.js";
import { gatedModelOutput, rememberOutput } from "./model-output.js";
import { isApprovedInMessages } from "./sdk-approval.js";

/** The part of a toolgate host the adapter uses: a real `createHost()` value fits. */
export type GateHost = Pick<Host, "checkToolCall" | "postToolCall">;

export interface GateToolsOptions {
  /**
   * The kind each tool's calls carry, by tool name (`{ terminal: "shell" }`), so policies written for
   * shells or MCP tools apply. A tool the host itself registered keeps its registered kind.
   * @default "function"
   */
  kinds?: Readonly<Record<string, string>>;
}

/**
 * What `gateTools` needs of a tool: the shape the AI SDK's `tool()` (ai@5 and ai@6) returns. Tools with
 * no `execute` (run by the client) are passed through unchanged.
 */
export interface GateableTool {
  // biome-ignore lint/suspicious/noExplicitAny: the SDK's execute takes its own input type; any keeps every tool assignable.
  execute?: ((input: any, options: any) => unknown) | undefined;
  needsApproval?: unknown;
  toModelOutput?: unknown;
}

/** What the SDK hands `execute` and `needsApproval` (ai@5's `ToolCallOptions`, ai@6's `ToolExecutionOptions`). */
interface CallOptions {
  toolCallId?: string;
  messages?: unknown;
}

/** Verdicts decided in `needsApproval`, kept for the `execute` that follows: `pre_tool_call` fires once per call. */
const maxRememberedVerdicts = 1000;

/**
 * Puts every call of these AI SDK tools through the host's plugins and returns the same tools map.
 * An allowed call runs the tool's own `execute` with the final arguments (after any plugin's `modify`)
 * and its output is untouched; a blocked call does not run, and the model reads the SDK's denial
 * (`execution-denied`, on ai@5 `error-text`) carrying the plugin's message. An `ask` goes to the host's
 * `onAsk`, or, when the host has none, to the SDK's approval flow (`needsApproval`, ai@6 and later; on
 * ai@5 it is blocked).
 */
export function gateTools<TOOLS extends Record<string, GateableTool>>(tools: TOOLS, host: GateHost, options: GateToolsOptions = {}): TOOLS {
  const gated: Record<string, GateableTool> = {};
  for (const [name, tool] of Object.entries(tools)) gated[name] = typeof tool.execute === "function" ? gateTool(name, tool, host, options.kinds?.[name]) : tool;
  return gated as TOOLS;
}

function gateTool(name: string, tool: GateableTool, host: GateHost, kind: string | undefined): GateableTool {
  const execute = tool.execute as (input: unknown, options: unknown) => unknown;
  const ownApproval = tool.needsApproval;
  const verdicts = new Map<string | undefined, { input: string | undefined; verdict: Promise<Verdict> }>();

  const callOf = (input: unknown, toolCallId: string | undefined): ToolCall & { id?: string } => {
    const call: { id?: string; name: string; args: Record<string, unknown>; kind?: string } = { name, args: input as Record<string, unknown> };
    if (toolCallId !== undefined) call.id = toolCallId;
    if (kind !== undefined) call.kind = kind;
    return call as ToolCall;
  };

  const check = (input: unknown, toolCallId: string | undefined): Promise<Verdict> =>
    host.checkToolCall(callOf(input, toolCallId), { resolveAsk: true, surface: "ai-sdk" }).catch((error: unknown) => ({
      action: "block",
      message: `toolgate could not check this call, so it does not run: ${error instanceof Error ? error.message : String(error)}`,
      args: {},
    }));

  const takeVerdict = (input: unknown, toolCallId: string | undefined): Promise<Verdict> => {
    const remembered = verdicts.get(toolCallId);
    verdicts.delete(toolCallId);
    // Only for the very call `needsApproval` judged: a reused id with other arguments is checked anew.
    if (remembered?.input !== undefined && remembered.input === jsonOf(input)) return remembered.verdict;
    return check(input, toolCallId);
  };

  /** The verdict `execute` acts on: an `ask` stands only if the SDK's approval flow approved this call. */
  const settle = (verdict: Verdict, options: CallOptions): Verdict => {
    if (verdict.action !== "ask") return verdict;
    if (options.toolCallId !== undefined && isApprovedInMessages(options.messages, options.toolCallId)) return { ...verdict, action: "allow" };
    const question = verdict.message ?? "approval needed";
    return { ...verdict, action: "block", message: `${question} (needs approval: the host has no onAsk, and the AI SDK did not approve this call)` };
  };

  async function runAllowed(input: unknown, verdict: Verdict, options: CallOptions): Promise<unknown> {
    const finalInput = sameArgs(input, verdict.args) ? input : structuredClone(verdict.args);
    const call = callOf(finalInput, options.toolCallId);
    try {
      let output = await execute.call(tool, finalInput, options);
      if (isAsyncIterable(output)) output = await lastOf(output);
      rememberOutput(output);
      await report(host, call, okResult(call, output));
      return output;
    } catch (error) {
      await report(host, call, { callId: call.id ?? "", name, status: "error", content: error instanceof Error ? error.message : String(error) });
      throw error;
    }
  }

  const gatedExecute = async (input: unknown, options: CallOptions = {}): Promise<unknown> => {
    const verdict = settle(await takeVerdict(input, options.toolCallId), options);
    if (verdict.action === "allow") return runAllowed(input, verdict, options);
    const blocked = blockedToolOutput(blockMessage(verdict), verdict.plugin);
    rememberOutput(blocked);
    return blocked;
  };

  // A streaming tool (an async generator) stays one: its preliminary outputs reach the SDK untouched.
  async function* gatedStream(input: unknown, options: CallOptions = {}): AsyncGenerator<unknown> {
    const verdict = settle(await takeVerdict(input, options.toolCallId), options);
    if (verdict.action !== "allow") {
      const blocked = blockedToolOutput(blockMessage(verdict), verdict.plugin);
      rememberOutput(blocked);
      yield blocked;
      return;
    }
    const finalInput = sameArgs(input, verdict.args) ? input : structuredClone(verdict.args);
    let last: unknown;
    for await (const output of execute.call(tool, finalInput, options) as AsyncIterable<unknown>) {
      last = output;
      rememberOutput(output);
      yield output;
    }
    const call = callOf(finalInput, options.toolCallId);
    await report(host, call, okResult(call, last));
  }

  const needsApproval = async (input: unknown, options: CallOptions = {}): Promise<boolean> => {
    const verdict = check(input, options.toolCallId);
    verdicts.set(options.toolCallId, { input: jsonOf(input), verdict });
    if (verdicts.size > maxRememberedVerdicts) verdicts.delete(verdicts.keys().next().value);
    const decided = await verdict;
    // A block is answered by execute with the denial; asking a human about it first would be noise.
    if (decided.action === "block") return false;
    if (decided.action === "ask") return true;
    if (typeof ownApproval === "function") return (await ownApproval.call(tool, input, options)) === true;
    return ownApproval === true;
  };

  return {
    ...tool,
    execute: isAsyncGeneratorFunction(execute) ? gatedStream : gatedExecute,
    needsApproval,
    toModelOutput: gatedModelOutput(typeof tool.toModelOutput === "function" ? (tool.toModelOutput.bind(tool) as (argument: unknown) => unknown) : undefined),
  };
}

/** True when a plugin's `modify` left the arguments as the model gave them: the tool then gets the SDK's own input. */
function sameArgs(input: unknown, args: Readonly<Record<string, unknown>>): boolean {
  const json = jsonOf(input);
  return json !== undefined && json === jsonOf(args);
}

/** JSON of a call's input, or undefined when it has none (then nothing ever matches it). */
function jsonOf(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

function okResult(call: ToolCall & { id?: string }, output: unknown): ToolResult {
  const base = { callId: call.id ?? "", name: call.name, status: "ok" as const };
  if (typeof output === "string") return { ...base, content: output };
  if (output === undefined) return { ...base, content: "" };
  let content: string;
  try {
    content = JSON.stringify(output) ?? String(output);
  } catch {
    content = String(output);
  }
  return { ...base, content, data: output };
}

/** `post_tool_call` observers fail open: a host closed meanwhile does not fail a tool that already ran. */
async function report(host: GateHost, call: ToolCall, result: ToolResult): Promise<void> {
  await host.postToolCall(call, result).catch(() => undefined);
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === "object" && value !== null && typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === "function";
}

async function lastOf(iterable: AsyncIterable<unknown>): Promise<unknown> {
  let last: unknown;
  for await (const value of iterable) last = value;
  return last;
}

function isAsyncGeneratorFunction(fn: unknown): boolean {
  return Object.prototype.toString.call(fn) === "[object AsyncGeneratorFunction]";
}
