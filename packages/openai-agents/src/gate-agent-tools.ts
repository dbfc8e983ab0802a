import type { ApplyPatchTool, ComputerTool, FunctionTool, ShellTool, Tool } from "@openai/agents";
import type { Host } from "@toolgate/host";
import { gateApplyPatchTool } from "./apply-patch-tool.js";
import { gateComputerTool } from "./computer-tool.js";
import { gateFunctionTool } from "./function-tool.js";
import { createCallGate, type CallGate } from "./gate.js";
import { gateShellTool } from "./shell-tool.js";

/**
 * The agent's tools with every call passing the host's `pre_tool_call` plugins before it runs:
 * function, shell, computer and apply_patch tools. Pass the result as the agent's `tools`.
 *
 * - allow: the tool runs with the final arguments (every `modify` merged in); its output is untouched.
 * - block: the tool does not run; the model reads the host's `blockMessage` as the call's output.
 * - ask: the host's `onAsk` decides when it has one; otherwise the SDK's approval flow
 *   (`result.interruptions`, `state.approve` / `state.reject`).
 *
 * A tool the SDK runs on OpenAI's side (hosted tools: web search, file search, code interpreter,
 * hosted MCP) cannot be gated here, so it is refused with an error rather than passed through.
 */
// biome-ignore lint/suspicious/noExplicitAny: the SDK's `Agent` takes `Tool<any>[]`, so the adapter does too.
export function gateAgentTools<Tools extends readonly Tool<any>[]>(tools: Tools, host: Host): Tools {
  if (!Array.isArray(tools)) throw new TypeError(`gateAgentTools: tools must be an array of @openai/agents tools, got ${typeof tools}`);
  const gate = createCallGate(host);
  return tools.map((tool, index) => gateTool(tool, gate, index)) as unknown as Tools;
}

// biome-ignore lint/suspicious/noExplicitAny: see gateAgentTools.
function gateTool(tool: Tool<any>, gate: CallGate, index: number): Tool<any> {
  switch (tool?.type) {
    case "function":
      // biome-ignore lint/suspicious/noExplicitAny: see gateAgentTools.
      return gateFunctionTool(tool as FunctionTool<any, any, any>, gate);
    case "shell":
      return gateShellTool(tool as ShellTool, gate);
    case "apply_patch":
      return gateApplyPatchTool(tool as ApplyPatchTool, gate);
    case "computer":
      return gateComputerTool(tool as ComputerTool, gate);
    default: {
      const name = (tool as { name?: unknown } | undefined)?.name;
      throw new TypeError(
        `gateAgentTools: tools[${index}]${typeof name === "string" ? ` ("${name}")` : ""} is a ${String(tool?.type)} tool, which runs outside this process and cannot be gated; pass it to the agent separately if you accept that`,
      );
    }
  }
}
