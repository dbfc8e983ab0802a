import type { ToolCall } from "@toolgate/plugin-sdk";
import { kindOfTool } from "@toolgate/host";
import type { FixtureCase } from "./fixture-schema.js";

/**
 * The tool call a case stands for. A case that names its agent gets the kind that agent's hook gives the
 * tool (`Bash` from claude-code is a `shell` call), so the policy sees it as `toolgate hook` would; an
 * explicit `kind` wins. Every agent's hook reads kinds from the one name table, `kindOfTool`.
 */
export function callOfCase(fixtureCase: FixtureCase, index: number): ToolCall {
  const kind = fixtureCase.kind ?? (fixtureCase.agent === undefined ? undefined : kindOfTool(fixtureCase.tool, { agent: fixtureCase.agent }));
  return { id: `fixture_${index}`, name: fixtureCase.tool, args: fixtureCase.args, ...(kind === undefined ? {} : { kind }) };
}
