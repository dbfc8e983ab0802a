import { agentNames, type AgentName, type AgentProtocol } from "./agent-protocol.js";
import { claudeCode } from "./claude-code.js";
import { codex } from "./codex.js";
import { copilotCli } from "./copilot-cli.js";
import { geminiCli } from "./gemini-cli.js";

/** Every coding agent `toolgate hook`, `init`, `doctor` and `serve` speak to, by name. */
export const agentProtocols: Record<AgentName, AgentProtocol> = {
  "claude-code": claudeCode,
  "gemini-cli": geminiCli,
  codex,
  "copilot-cli": copilotCli,
};

export function isAgentName(value: string): value is AgentName {
  return (agentNames as readonly string[]).includes(value);
}

export { agentNames };
