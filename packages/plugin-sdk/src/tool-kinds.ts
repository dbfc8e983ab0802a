import type { ToolKind } from "./tool-call.js";

/**
 * The one table of agent tool names to kinds, shared by every surface (the agents' hooks, `explain`,
 * `run`, `serve`'s `/v1/check`, the Claude Agent SDK adapter) and by `isShellCall`: a policy written for
 * shells, file edits or web fetches covers every agent's tools. Each coding agent's built-ins under its
 * name (the name of its `toolgate hook`), as the agent sends them.
 */
export const agentToolKinds = {
  "claude-code": {
    Bash: "shell",
    BashOutput: "shell",
    KillShell: "shell",
    Edit: "edit",
    MultiEdit: "edit",
    NotebookEdit: "edit",
    Write: "write",
    Read: "read",
    NotebookRead: "read",
    Glob: "read",
    Grep: "read",
    LS: "read",
    WebFetch: "web",
    WebSearch: "web",
  },
  "gemini-cli": {
    run_shell_command: "shell",
    replace: "edit",
    write_file: "write",
    read_file: "read",
    read_many_files: "read",
    glob: "read",
    search_file_content: "read",
    list_directory: "read",
    web_fetch: "web",
    google_web_search: "web",
  },
  codex: { Bash: "shell", shell: "shell", exec_command: "shell", local_shell: "shell", "container.exec": "shell", apply_patch: "edit" },
  "copilot-cli": {
    bash: "shell",
    powershell: "shell",
    edit: "edit",
    str_replace: "edit",
    create: "write",
    view: "read",
    glob: "read",
    grep: "read",
    web_fetch: "web",
  },
} as const satisfies Record<string, Readonly<Record<string, ToolKind>>>;

/** The agents the table names: the coding agents `toolgate hook` speaks to. */
export type ToolKindAgent = keyof typeof agentToolKinds;
export const toolKindAgents: readonly ToolKindAgent[] = Object.freeze(Object.keys(agentToolKinds) as ToolKindAgent[]);

/**
 * Tools of other agents and frameworks, which have no hook of their own: Cursor's `run_terminal_cmd` and
 * `edit_file`, Cline's `execute_command`, VS Code's `run_in_terminal`, and the common names of shell tools
 * in agent frameworks and MCP servers.
 */
const otherToolKinds: Readonly<Record<string, ToolKind>> = {
  sh: "shell",
  zsh: "shell",
  terminal: "shell",
  exec: "shell",
  run_command: "shell",
  execute_command: "shell",
  shell_command: "shell",
  run_terminal_cmd: "shell",
  run_in_terminal: "shell",
  str_replace_editor: "edit",
  edit_file: "edit",
  create_file: "write",
  grep_search: "read",
  ls: "read",
  fetch: "web",
};

/** Every name in the table, lower-case: how a call that names no agent is read. */
const anyAgentKinds: ReadonlyMap<string, ToolKind> = new Map(
  [...Object.values(agentToolKinds), otherToolKinds].flatMap((kinds) => Object.entries(kinds).map(([name, kind]) => [name.toLowerCase(), kind] as const)),
);

/**
 * The names of tools that run a shell command line, lower-case: every name the table gives the kind
 * `shell`. `isShellCall`, the permission rules and `block-dangerous-shell` read shell lines of these.
 */
export const shellToolNames: readonly string[] = Object.freeze([...anyAgentKinds].filter(([, kind]) => kind === "shell").map(([name]) => name));

/** `mcp__<server>__<tool>`: how Claude Code, Gemini CLI and Codex name MCP tools. */
const mcpToolName = /^mcp__.+__.+/;

export interface KindOfToolOptions {
  /** The agent that sent the call (`claude-code`, …): its own names are read first. */
  agent?: string | undefined;
  /** The agent says the tool is from an MCP server. */
  mcp?: boolean | undefined;
}

/**
 * The kind of an agent's tool: `mcp` for MCP tools; the kind the table gives its name, as `agent` sends
 * it, else in any case under any agent; `function` for the rest (Claude Code's `Task`, a framework's own
 * tools). Throws on an agent the table does not know.
 */
export function kindOfTool(toolName: string, options: KindOfToolOptions = {}): ToolKind {
  if (options.mcp === true || mcpToolName.test(toolName)) return "mcp";
  if (options.agent !== undefined) {
    if (!Object.hasOwn(agentToolKinds, options.agent))
      throw new TypeError(`unknown agent "${options.agent}": the tool-kind table knows ${toolKindAgents.join(", ")}`);
    const own: Readonly<Record<string, ToolKind>> = agentToolKinds[options.agent as ToolKindAgent];
    if (Object.hasOwn(own, toolName)) return own[toolName]!;
  }
  return anyAgentKinds.get(toolName.toLowerCase()) ?? "function";
}
