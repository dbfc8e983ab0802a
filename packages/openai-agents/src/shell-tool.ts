import type { ShellAction, ShellResult, ShellTool } from "@openai/agents";
import { createApprovalSeam } from "./approval-seam.js";
import type { CallGate } from "./gate.js";

/**
 * A local shell tool whose calls pass the gate. Plugins see `kind: "shell"` and the command lines in
 * `args.command` (joined by newlines) as well as the action's own fields (`commands`, `timeoutMs`, …).
 * A `modify` of `command` replaces the commands with that one line; a `modify` of `commands` replaces them.
 */
export function gateShellTool<Tool extends ShellTool>(tool: Tool, gate: CallGate): Tool {
  const { shell } = tool;
  if (!shell) return tool;
  const seam = createApprovalSeam<ShellAction>({
    gate,
    name: tool.name,
    kind: "shell",
    argsOf: (action) => ({ ...action, command: action.commands.join("\n") }),
    needsApproval: tool.needsApproval,
    onApproval: tool.onApproval,
  });
  const gatedShell = {
    async run(action: ShellAction): Promise<ShellResult> {
      const { call, verdict } = await seam.verdictFor(action);
      if (verdict.action === "block") {
        const text = await gate.blockedText(call, verdict);
        return { output: [{ stdout: "", stderr: text, outcome: { type: "exit", exitCode: null } }] };
      }
      return shell.run(finalAction(action, call.args, verdict.args));
    },
  };
  return { ...tool, shell: gatedShell, needsApproval: seam.needsApproval, onApproval: seam.onApproval };
}

function finalAction(action: ShellAction, checked: Record<string, unknown>, final: Record<string, unknown>): ShellAction {
  if (JSON.stringify(checked) === JSON.stringify(final)) return action;
  const { command, ...rest } = final;
  const commands = command !== checked["command"] && typeof command === "string" ? [command] : rest["commands"];
  return { ...(rest as Partial<ShellAction>), commands: Array.isArray(commands) ? commands.map(String) : action.commands } as ShellAction;
}
