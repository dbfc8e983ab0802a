import { homedir } from "node:os";
import { commandFields, commandsOf, definePlugin, isShellCall, type ToolCall } from "@toolgate/plugin-sdk";
import { checkCommand } from "./check.js";
import { explainCheck, type ShellExplanation } from "./explain.js";
import { resolveOptions, type BlockDangerousShellOptions } from "./options.js";
import type { PackName } from "./rules/rule.js";

export type { BlockDangerousShellOptions, ExtraRule } from "./options.js";
export type { ShellExplanation } from "./explain.js";

/**
 * Refuses destructive shell commands: recursive deletes of `/`, `~`, system folders, the project root
 * or anything outside the project; destructive git commands; fork bombs, `mkfs`, raw disk writes,
 * `curl … | sh`, writes to `/etc`, `sudo`; and, in opt-in packs, database, container, Kubernetes,
 * cloud and Terraform destruction. A guard rail against accidents, not a sandbox: it reads the command
 * line, it cannot see what a script file or a variable set elsewhere will do at run time.
 */
export default definePlugin<BlockDangerousShellOptions>((options, api) => {
  const { tools, guard, packs } = resolveOptions(options, { projectRoot: api.cwd, home: homedir() });
  return {
    name: "block-dangerous-shell",
    description: "Refuses destructive shell commands (rm -rf outside the project, destructive git, fork bombs, mkfs, curl | sh, sudo, …)",
    // Runs before other policies, so its specific message is the one the model sees.
    order: -100,
    hooks: {
      pre_tool_call(call) {
        if (!isShellCall(call, tools)) return;
        // Every field the tool may run is checked: the call passes only when each one does.
        for (const field of commandsOf(call)) {
          if (field.command === undefined) return { action: "block", message: unreadable(field.field) };
          const { violation } = checkCommand(field.command, guard, cwdOf(call));
          if (violation) return { action: "block", message: violation.message };
        }
      },
    },
    explain(call: ToolCall): ShellExplanation {
      if (!isShellCall(call, tools))
        return { checked: false, reason: `"${call.name}" is not a shell tool (kind "${call.kind ?? "function"}"; shell tools: ${[...tools].join(", ")})` };
      const fields = commandsOf(call);
      if (fields.length === 0) return { checked: false, reason: `the call has none of ${commandFields.map((name) => `args.${name}`).join(", ")}` };
      // The first field that is refused (or cannot be read) explains the decision; else the first field.
      let first: ShellExplanation | undefined;
      for (const { field, command } of fields) {
        if (command === undefined) return unreadableExplanation(call, field, packs, guard.context.projectRoot);
        const explanation = explainCheck(command, checkCommand(command, guard, cwdOf(call)), guard, packs);
        if (explanation.checked && explanation.verdict.action === "block") return explanation;
        first ??= explanation;
      }
      return first!;
    },
  };
});

// Shared with the permission rules, which read the same fields of the same calls (`@toolgate/plugin-sdk`).
export { commandFields, commandsOf };

/** The first command line of a shell call (see `commandsOf`), or undefined when there is none that can be read. */
export function commandOf(call: ToolCall): string | undefined {
  return commandsOf(call)[0]?.command;
}

function unreadableExplanation(call: ToolCall, field: string, packs: readonly PackName[], projectRoot: string): ShellExplanation {
  const message = unreadable(field);
  const command = JSON.stringify(call.args[field]) ?? String(call.args[field]);
  const verdict = { action: "block" as const, rule: "unreadable", message };
  return { checked: true, command, cwd: projectRoot, projectRoot, packs, problems: [message], scripts: [], commands: [], deletes: [], verdict };
}

function unreadable(field: string): string {
  return `refusing a shell call whose args.${field} is not a command line (a string) or an argv (an array of strings), so what it would run cannot be checked. Pass the command as a string.`;
}

/** The folder the command runs in, when the call says (`cwd`, `workdir`, `directory`): relative to the project. */
function cwdOf(call: ToolCall): string | undefined {
  const value = call.args["cwd"] ?? call.args["workdir"] ?? call.args["working_directory"] ?? call.args["directory"];
  return typeof value === "string" && value !== "" ? value : undefined;
}
