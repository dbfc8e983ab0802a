import { homedir } from "node:os";
import { posix } from "node:path";
import { commandFields, shellCommands, definePlugin, inputFields, isShellCall, type ToolCall } from "@toolgate/plugin-sdk";
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
        const folder = cwdOf(call, guard.context.projectRoot);
        if ("problem" in folder) return { action: "block", message: folder.problem };
        // Every field the tool may run is checked: the call passes only when each one does.
        for (const field of shellCommands(call)) {
          if (field.command === undefined) return { action: "block", message: unreadable(field.field) };
          const { violation } = checkCommand(field.command, guard, folder.cwd);
          if (violation) return { action: "block", message: violation.message };
        }
      },
    },
    explain(call: ToolCall): ShellExplanation {
      if (!isShellCall(call, tools))
        return { checked: false, reason: `"${call.name}" is not a shell tool (kind "${call.kind ?? "function"}"; shell tools: ${[...tools].join(", ")})` };
      const fields = shellCommands(call);
      if (fields.length === 0) return { checked: false, reason: `the call has none of ${commandFields.map((name) => `args.${name}`).join(", ")}` };
      const folder = cwdOf(call, guard.context.projectRoot);
      if ("problem" in folder) return refusedExplanation(call, "working-folder", folder.problem, packs, guard.context.projectRoot);
      // The first field that is refused (or cannot be read) explains the decision; else the first field.
      let first: ShellExplanation | undefined;
      for (const { field, command } of fields) {
        if (command === undefined) return unreadableExplanation(call, field, packs, guard.context.projectRoot);
        const explanation = explainCheck(command, checkCommand(command, guard, folder.cwd), guard, packs);
        if (explanation.checked && explanation.verdict.action === "block") return explanation;
        first ??= explanation;
      }
      return first!;
    },
  };
});

// Shared with the permission rules, which read the same fields of the same calls (`@toolgate/plugin-sdk`).
export { commandFields, shellCommands };

/** The first command line of a shell call (see `shellCommands`), or undefined when there is none that can be read. */
export function commandOf(call: ToolCall): string | undefined {
  return shellCommands(call)[0]?.command;
}

function unreadableExplanation(call: ToolCall, field: string, packs: readonly PackName[], projectRoot: string): ShellExplanation {
  const message = unreadable(field);
  const command = JSON.stringify(call.args[field]) ?? String(call.args[field]);
  const verdict = { action: "block" as const, rule: "unreadable", message };
  return { checked: true, command, cwd: projectRoot, projectRoot, packs, problems: [message], scripts: [], commands: [], deletes: [], verdict };
}

function unreadable(field: string): string {
  if (inputFields.includes(field))
    return `refusing input for a shell session in args.${field}: it is not whole lines of plain text (an unfinished line, editing keys or history expansion such as \`!!\` change what the shell runs), so what it would run cannot be checked. Send complete command lines ending in a newline.`;
  return `refusing a shell call whose args.${field} is not a command line (a string) or an argv (an array of strings), so what it would run cannot be checked. Pass the command as a string.`;
}

function refusedExplanation(call: ToolCall, rule: string, message: string, packs: readonly PackName[], projectRoot: string): ShellExplanation {
  const verdict = { action: "block" as const, rule, message };
  return {
    checked: true,
    command: JSON.stringify(call.args),
    cwd: projectRoot,
    projectRoot,
    packs,
    problems: [message],
    scripts: [],
    commands: [],
    deletes: [],
    verdict,
  };
}

/** The fields agents name the working folder with: Codex `workdir`, Gemini CLI `dir_path` (earlier `directory`), others `cwd`. */
export const folderFields = ["cwd", "workdir", "working_directory", "working_dir", "directory", "dir_path", "dir", "cwd_path"] as const;

/**
 * The folder the command runs in, when the call says: relative to the project. A call that names two
 * different folders in different fields is refused rather than guessed (the agent reads one, a decoy may
 * be the other); so is one whose folder is not a string.
 */
function cwdOf(call: ToolCall, projectRoot: string): { cwd: string | undefined } | { problem: string } {
  let found: { field: string; value: string } | undefined;
  for (const field of folderFields) {
    const value = call.args[field];
    if (value === undefined || value === null || value === "") continue;
    if (typeof value !== "string")
      return {
        problem: `refusing a shell call whose args.${field} is not a folder (a string), so where it runs cannot be checked. Pass the folder as a string.`,
      };
    if (found !== undefined && posix.resolve(projectRoot, found.value) !== posix.resolve(projectRoot, value))
      return {
        problem: `refusing a shell call that names two working folders (args.${found.field} is ${JSON.stringify(found.value)}, args.${field} is ${JSON.stringify(value)}): which one the command runs in cannot be known. Name the folder once.`,
      };
    found ??= { field, value };
  }
  return { cwd: found?.value };
}
