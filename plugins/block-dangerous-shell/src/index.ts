import { definePlugin, type ToolCall } from "@toolgate/plugin-sdk";
import { resolveOptions, type BlockDangerousShellOptions } from "./options.js";
import type { Rule } from "./rules.js";
import { analyze } from "./shell/invocations.js";

export type { BlockDangerousShellOptions, ExtraRule } from "./options.js";

/**
 * Refuses destructive shell commands: recursive deletes of `/` or `~`, `sudo`, `curl … | sh`, fork
 * bombs, writes to `/etc`, `mkfs` and raw writes to disks. A guard rail against accidents, not a
 * sandbox: it reads the command line, it cannot see what a script or a variable will do at run time.
 */
export default definePlugin<BlockDangerousShellOptions>((options) => {
  const { tools, rules } = resolveOptions(options);
  return {
    name: "block-dangerous-shell",
    description: "Refuses destructive shell commands (rm -rf /, sudo, curl | sh, fork bombs, writes to /etc, mkfs, dd to disks)",
    // Runs before other policies, so its specific message is the one the model sees.
    order: -100,
    hooks: {
      pre_tool_call(call) {
        if (call.kind !== "shell" && !tools.has(call.name)) return;
        const command = commandOf(call);
        if (command === undefined) return;
        const rule = findViolation(command, rules);
        if (rule) return { action: "block", message: rule.message };
      },
    },
  };
});

/**
 * The command line of a shell call: `args.command`, else `args.cmd`, else `args.script`. A one-element
 * array is the command line itself; a longer array is an argv (`["bash", "-lc", "…"]`), so each element
 * is quoted to keep its boundaries.
 */
export function commandOf(call: ToolCall): string | undefined {
  const value = call.args["command"] ?? call.args["cmd"] ?? call.args["script"];
  if (typeof value === "string") return value;
  if (!Array.isArray(value) || !value.every((part): part is string => typeof part === "string")) return undefined;
  return value.length === 1 ? value[0] : value.map(quote).join(" ");
}

function quote(part: string): string {
  return /^[\w@%+=:,./-]+$/.test(part) ? part : `'${part.replaceAll("'", `'\\''`)}'`;
}

function findViolation(command: string, rules: readonly Rule[]): Rule | undefined {
  const analysis = analyze(command);
  return rules.find((rule) => rule.matches(command, analysis));
}
