import { ErrorCode, McpError, type CallToolRequest, type Result } from "@modelcontextprotocol/sdk/types.js";
import type { ToolCall, ToolDefinition } from "@toolgate/plugin-sdk";
import { mcpToolDefinition, mcpToolOutput, type McpToolInfo } from "@toolgate/host/internal";
import { describeThrown } from "@toolgate/host/internal";
import { blockMessage } from "@toolgate/host";
import { unapproved } from "@toolgate/host/internal";
import type { Policy } from "./policy.js";

export type CallParams = CallToolRequest["params"];

/**
 * Sends a tools/call on to the upstream and resolves with its result as received; rejects with the
 * upstream's error. `context` is whatever the caller of `call` passed along (the downstream request).
 */
export type ForwardToolCall<Context> = (params: CallParams, context: Context) => Promise<Result>;

/** One tools/call in flight: what the client sent, and what the upstream answered. */
interface Exchange<Context> {
  params: CallParams;
  context: Context;
  answer?: { result: Result } | { error: unknown };
}

/**
 * Puts every `tools/call` through the host as a call of kind `"mcp"`. The upstream's tools are host
 * tools whose `execute` forwards to the upstream, so the gate runs `pre_tool_call` once, and
 * `post_tool_call` and the events fire as for any tool; the raw upstream answer is kept on the side and
 * returned to the client untouched.
 */
export interface ToolCallGate<Context> {
  /** Host tools for the upstream's tools (pass them to `createHost`). */
  hostTools(tools: readonly McpToolInfo[]): Record<string, ToolDefinition>;
  /** `params` as the client sent them, unchecked: the SDK's own tools/call validation does not run here. */
  call(policy: Policy, params: CallParams | undefined, context: Context): Promise<Result>;
}

export function createToolCallGate<Context>(forwardCall: ForwardToolCall<Context>): ToolCallGate<Context> {
  const exchanges = new Map<string, Exchange<Context>>();
  const registered = new Set<string>();
  let sequence = 0;

  async function forward(exchange: Exchange<Context>, args: Record<string, unknown>): Promise<Result> {
    try {
      const result = await forwardCall({ ...exchange.params, arguments: args }, exchange.context);
      exchange.answer = { result };
      return result;
    } catch (error) {
      exchange.answer = { error };
      throw error;
    }
  }

  function hostTool(info: McpToolInfo): ToolDefinition {
    return mcpToolDefinition(info, async (args, ctx) => {
      const exchange = exchanges.get(ctx.call.id);
      if (exchange === undefined) throw new Error(`"${info.name}" runs only for a tools/call the proxy received`);
      return mcpToolOutput(info.name, await forward(exchange, args));
    });
  }

  /** A tool the host knows: the whole lifecycle (gate, execute, post_tool_call, events). */
  async function callRegistered(policy: Extract<Policy, { ok: true }>, call: ToolCall, exchange: Exchange<Context>): Promise<Result> {
    const result = await policy.host.callTool(call);
    if (exchange.answer === undefined) return denied(result.content);
    if ("error" in exchange.answer) throw exchange.answer.error;
    return exchange.answer.result;
  }

  /**
   * A tool the upstream added after start-up (tools/list_changed) is not a host tool: the gate still
   * decides it, once, but the host does not run it, so post_tool_call does not see it.
   */
  async function callUnregistered(policy: Extract<Policy, { ok: true }>, call: ToolCall, exchange: Exchange<Context>): Promise<Result> {
    const verdict = await policy.host.checkToolCall(call, { resolveAsk: true });
    if (verdict.action === "allow") return forward(exchange, verdict.args);
    // Worded as callTool words it for a registered tool: the same reason whichever way the tool came.
    return denied(blockMessage(verdict.action === "ask" ? unapproved(verdict) : verdict));
  }

  return {
    hostTools(tools) {
      const definitions: Record<string, ToolDefinition> = {};
      for (const info of tools) {
        definitions[info.name] = hostTool(info);
        registered.add(info.name);
      }
      return definitions;
    },

    async call(policy, params, context) {
      if (params === undefined || typeof params.name !== "string") throw new McpError(ErrorCode.InvalidParams, "tools/call needs params.name, the tool's name");
      if (!policy.ok) return denied(`toolgate denies every tool call: ${policy.reason}`);
      const call: ToolCall = { id: `mcp-${++sequence}`, name: params.name, args: params.arguments ?? {}, kind: "mcp" };
      const exchange: Exchange<Context> = { params, context };
      exchanges.set(call.id, exchange);
      try {
        return await (registered.has(call.name) ? callRegistered(policy, call, exchange) : callUnregistered(policy, call, exchange));
      } catch (error) {
        // An upstream answer (an MCP error, a cancellation) goes back as it came; anything else is the
        // policy path failing, and that denies.
        if (exchange.answer !== undefined) throw error;
        return denied(`toolgate could not decide this call, so it is denied: ${describeThrown(error)}`);
      } finally {
        exchanges.delete(call.id);
      }
    },
  };
}

/** The stderr line for a tools/call the client sent as a notification (no id): it is never forwarded. */
export function droppedNotification(params: unknown): string {
  const name = (params as { name?: unknown } | undefined)?.name;
  return `dropped a tools/call sent as a notification (no id)${typeof name === "string" ? ` for tool "${name}"` : ""}: a tool call needs an id to be gated and answered, so it is not forwarded`;
}

/** A blocked call as MCP: a tool result the model reads, never a protocol error. */
function denied(text: string): Result {
  return { content: [{ type: "text", text }], isError: true };
}
