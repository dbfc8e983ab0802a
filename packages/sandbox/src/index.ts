import { definePlugin, isShellCall, type PreToolCallResult, type ToolCall } from "@toolgate/plugin-sdk";
import { sandboxStatus } from "./availability.js";
import { bwrapArguments } from "./bwrap-arguments.js";
import { containedArguments } from "./contain-call.js";
import type { Launcher } from "./contain.js";
import { networkPrefix } from "./network.js";
import { resolveOptions, type ResolvedSandboxOptions, type SandboxOptions } from "./options.js";
import { planFor } from "./plan.js";

export type { SandboxOptions } from "./options.js";
export { probeSandbox, sandboxStatus, type SandboxStatus } from "./availability.js";
export { bwrapArguments, type SandboxPlan } from "./bwrap-arguments.js";
export { containArgv, containLine, type Launcher } from "./contain.js";
export { networkPrefix } from "./network.js";

const pluginName = "sandbox";

/**
 * Runs every shell call inside a bubblewrap sandbox: it rewrites the call (a `modify`) so that the command
 * may write only the project (but toolgate's own policy) and a private `/tmp`, sees no network by default,
 * and otherwise behaves as it would outside. Where no sandbox can start, shell calls are blocked (`unavailable`).
 */
export default definePlugin<SandboxOptions>((options, api) => {
  const resolved = resolveOptions(options, api.cwd);
  return {
    name: pluginName,
    description: "Runs shell calls inside an operating-system sandbox (bubblewrap): writes only in the project, no network by default or listed hosts only",
    hooks: {
      pre_tool_call: (call) => (isShellCall(call) ? contain(call, resolved, api.cwd, api.policyPaths) : undefined),
    },
  };
});

function contain(call: ToolCall, options: ResolvedSandboxOptions, projectRoot: string, policyPaths: readonly string[]): PreToolCallResult {
  if (/powershell|pwsh/i.test(call.name)) return { action: "block", message: refusal(call, "PowerShell calls cannot be contained (the sandbox runs bash)") };
  const status = sandboxStatus();
  if (!status.available) return whenUnavailable(call, options, `${status.problem}; ${status.advice}`);
  const plan = planFor(options, projectRoot, policyPaths);
  if ("problem" in plan) return { action: "block", message: refusal(call, plan.problem) };
  const launcher = launcherFor(status, options);
  if ("problem" in launcher) return { action: "block", message: refusal(call, launcher.problem) };
  const contained = containedArguments(call, launcher, bwrapArguments(plan));
  if ("problem" in contained) return { action: "block", message: refusal(call, contained.problem) };
  return Object.keys(contained.args).length === 0 ? undefined : { action: "modify", args: contained.args, contained: true };
}

function launcherFor(programs: Launcher, options: ResolvedSandboxOptions): Launcher | { problem: string } {
  if (typeof options.network === "string") return programs;
  const prefix = networkPrefix(options.network.allow);
  return "problem" in prefix ? prefix : { bwrap: programs.bwrap, bash: programs.bash, before: prefix.before };
}

function whenUnavailable(call: ToolCall, options: ResolvedSandboxOptions, why: string): PreToolCallResult {
  if (options.unavailable === "allow") return undefined;
  return {
    action: options.unavailable,
    message: refusal(call, `no sandbox can start on this machine: ${why}. Or set the sandbox's option unavailable: "ask" or "allow"`),
  };
}

function refusal(call: ToolCall, why: string): string {
  return `"${call.name}" was not run: it would run outside toolgate's sandbox, because ${why}.`;
}
