export { gateTools, type GateableTool, type GateHost, type GateToolsOptions } from "./gate-tools.js";
export { isBlockedToolOutput, type BlockedToolOutput } from "./blocked-output.js";
