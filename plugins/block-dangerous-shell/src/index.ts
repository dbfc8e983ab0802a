import { homedir } from "node:os";
import { definePlugin, type ToolCall } from "@toolgate/plugin-sdk";
import { checkCommand } from "./check.js";
import { explainCheck, type ShellExplanation } from "./explain.js";
import { resolveOptions, type BlockDangerousShellOptions } from "./options.js";

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
  const isShellCall = (call: ToolCall) => call.kind === "shell" || tools.has(call.name.toLowerCase()) || tools.has(lastSegment(call.name));
  return {
    name: "block-dangerous-shell",
    description: "Refuses destructive shell commands (rm -rf outside the project, destructive git, fork bombs, mkfs, curl | sh, sudo, …)",
    // Runs before other policies, so its specific message is the one the model sees.
    order: -100,
    hooks: {
      pre_tool_call(call) {
        if (!isShellCall(call)) return;
        const command = commandOf(call);
        if (command === undefined) return;
        const { violation } = checkCommand(command, guard, cwdOf(call));
        if (violation) return { action: "block", message: violation.message };
      },
    },
    explain(call: ToolCall): ShellExplanation {
      if (!isShellCall(call)) return { checked: false, reason: `"${call.name}" is not a shell tool (kind "${call.kind ?? "function"}"; shell tools: ${[...tools].join(", ")})` };
      const command = commandOf(call);
      if (command === undefined) return { checked: false, reason: "the call has no command string in args.command, args.cmd or args.script" };
      return explainCheck(command, checkCommand(command, guard, cwdOf(call)), guard, packs);
    },
  };
});

/** `mcp__shell__bash` → `bash`, `functions.exec` → `exec`: the tool's own name after a server or namespace prefix. */
function lastSegment(name: string): string {
  return name.toLowerCase().split(/__|[.:/]/).pop() ?? "";
}

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

/** The folder the command runs in, when the call says (`cwd`, `workdir`, `directory`): relative to the project. */
function cwdOf(call: ToolCall): string | undefined {
  const value = call.args["cwd"] ?? call.args["workdir"] ?? call.args["working_directory"] ?? call.args["directory"];
  return typeof value === "string" && value !== "" ? value : undefined;
}

function quote(part: string): string {
  return /^[\w@%+=:,./-]+$/.test(part) ? part : `'${part.replaceAll("'", `'\\''`)}'`;
}
