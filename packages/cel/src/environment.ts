import { Environment } from "@marcbachmann/cel-js";
import type { PolicyContext } from "@toolgate/plugin-sdk";

/**
 * The variables every rule may read, with their CEL types. `args` and `session` are maps whose values
 * are `dyn`, so `has(args.path)`, `args.path.startsWith("/etc")` and `args.count > 3` all type-check,
 * and a wrong type is an evaluation error at run time.
 */
export const celVariables = {
  tool: "string",
  kind: "string",
  args: "map<string, dyn>",
  callId: "string",
  session: "map<string, dyn>",
  agent: "string",
  cwd: "string",
} as const;

/** One environment for every rule: declared variables only, so a misspelt one fails at load. */
export function createCelEnvironment(): Environment {
  let environment = new Environment({ unlistedVariablesAreDyn: false });
  for (const [name, type] of Object.entries(celVariables)) environment = environment.registerVariable(name, type);
  return environment;
}

/**
 * The bindings for one evaluation. `agent` is a declared variable, and CEL has no "unset" for one, so
 * a call whose surface does not know the agent reads `agent` as `""`.
 */
export function celBindings(context: PolicyContext): Record<string, unknown> {
  return {
    tool: context.tool,
    kind: context.kind,
    args: context.args,
    callId: context.callId,
    session: context.session,
    agent: context.agent ?? "",
    cwd: context.cwd,
  };
}
