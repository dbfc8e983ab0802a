import { kindOfTool, toolKindAgents, type ToolCall } from "@toolgate/host";
import { Option } from "commander";

/**
 * `--agent <name>` on `explain` and `run`: read tool names as that agent's hook does, so `explain Bash …`
 * gives `Bash` the kind `toolgate hook claude-code` gives it. Without it, the shared table (any agent's names).
 */
export function agentOption(): Option {
  return new Option("--agent <name>", "read tool names as this agent's hook does (their kinds: Bash is shell, …)").choices(toolKindAgents);
}

/** The call with a kind: its own when it names one, else the one the agent's hook would give its tool. */
export function withToolKind<Call extends ToolCall>(call: Call, agent: string | undefined): Call {
  return call.kind === undefined ? { ...call, kind: kindOfTool(call.name, { agent }) } : call;
}
