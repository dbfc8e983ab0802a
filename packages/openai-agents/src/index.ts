export { gateAgentTools } from "./gate-agent-tools.js";
