import { describe, expect, it } from "vitest";
import { agentProtocols } from "../../../packages/toolgate/src/agents/agents.js";
import { agentSettingsPaths } from "../../../packages/host/src/protection/policy-home.js";

describe("the protection knows where every agent's hook is installed", () => {
  it.each(Object.values(agentProtocols).map((protocol) => [protocol.name, protocol.settings.file]))("%s: %s", (_agent, file) => {
    expect(agentSettingsPaths.some(({ path }) => file === path || file.startsWith(`${path}/`))).toBe(true);
  });
});
