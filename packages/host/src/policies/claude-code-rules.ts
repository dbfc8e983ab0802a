/**
 * Claude Code's own permission rule forms, as they are written in `.claude/settings.json`, read as toolgate
 * rules: `Bash`, `Bash(npm run test)`, `Bash(git status:*)`, `Bash(npm run *)`, `Read(./secrets/**)`,
 * `Edit(/src/**)`, `WebFetch(domain:example.com)`, `mcp__server`, `mcp__server__tool`.
 */

/** One condition of a rule read from Claude Code's form: the argument it looks at and how its value matches. */
export interface ClaudeCondition {
  readonly key: string;
  /** A shell command (`Bash(…)`), matched command by command like toolgate's `command=` conditions. */
  readonly shell: boolean;
  /** A path glob in toolgate's form (relative to the project, or absolute), matched as `path=` conditions are. */
  readonly pathGlob?: string;
  /** Any other value: the whole text. */
  readonly value?: (text: string) => boolean;
}

/** A Claude Code rule: which calls it names (by tool name, or every shell call), and its condition if any. */
export interface ClaudeRule {
  /** Tool names it names, matched case-insensitively; `"shell"` for every shell call (Claude Code's `Bash`). */
  readonly tools: readonly string[] | "shell";
  /** Tool-name globs (`mcp__server__*`) instead of names. */
  readonly toolGlob?: string;
  /** One per tool in `tools` (the key differs: `file_path`, `path`, `notebook_path`); empty for the whole tool. */
  readonly conditions: readonly (ClaudeCondition | undefined)[];
}

const claudeForm = /^([A-Za-z][\w-]*)\((.*)\)$/s;

// Claude Code applies a Read rule to every tool that reads files, an Edit rule to every tool that changes one.
const readTools: readonly [string, string][] = [
  ["Read", "file_path"],
  ["Grep", "path"],
  ["Glob", "path"],
  ["LS", "path"],
  ["NotebookRead", "notebook_path"],
];
const editTools: readonly [string, string][] = [
  ["Edit", "file_path"],
  ["MultiEdit", "file_path"],
  ["Write", "file_path"],
  ["NotebookEdit", "notebook_path"],
];

/** Whether the rule is written in Claude Code's form (`Tool(specifier)`, or an MCP server name). */
export function isClaudeCodeRule(rule: string): boolean {
  return claudeForm.test(rule) || isMcpServer(rule);
}

/** An MCP server's name alone (`mcp__github`): Claude Code reads it as every tool of that server. */
function isMcpServer(rule: string): boolean {
  return /^mcp__[^_*?[\]{}()!:]+(?:_[^_*?[\]{}()!:]+)*$/.test(rule) && !rule.slice(5).includes("__");
}

/**
 * A Claude Code rule read as toolgate reads its own, or an error naming the form expected and the toolgate
 * rule that says the same (a rule toolgate cannot read is refused at load, never silently ignored).
 */
export function readClaudeCodeRule(rule: string, effect: "deny" | "ask" | "allow" = "deny"): ClaudeRule | { error: string } {
  if (isMcpServer(rule)) return { tools: [], toolGlob: `${rule}__*`, conditions: [] };
  const [, tool = "", specifier = ""] = claudeForm.exec(rule) ?? [];
  const whole = specifier === "" || specifier === "*";
  switch (tool) {
    case "Bash":
      return { tools: "shell", conditions: whole ? [] : [{ key: "command", shell: true, value: bashMatcher(specifier) }] };
    case "Read":
      return fileRule(readTools, specifier, whole, rule);
    case "Edit":
    case "Write":
    case "MultiEdit":
      return fileRule(editTools, specifier, whole, rule);
    case "WebFetch":
      return webFetchRule(specifier, whole, rule, effect !== "allow");
    default:
      if (whole) return { tools: [tool], conditions: [] };
      return {
        error: `"${rule}" is a Claude Code rule for ${tool}, whose specifier toolgate does not read (it reads Bash(…), Read(…), Edit(…), Write(…) and WebFetch(domain:…)); write "${tool}" for every call of that tool, or "${tool}:<argument>=<glob>"`,
      };
  }
}

/**
 * `npm run build` (exactly), `git status:*` (the command, alone or with more words), `npm run *`
 * (`*` any text; a final ` *` also matches no more words). Case-insensitive, as toolgate's globs are.
 */
function bashMatcher(specifier: string): (command: string) => boolean {
  if (specifier.endsWith(":*")) {
    const prefix = specifier.slice(0, -2).toLowerCase();
    return (command) => {
      const text = command.toLowerCase();
      return text === prefix || text.startsWith(`${prefix} `);
    };
  }
  if (!specifier.includes("*")) {
    const exact = specifier.toLowerCase();
    return (command) => command.toLowerCase() === exact;
  }
  const optionalTail = specifier.endsWith(" *");
  const body = optionalTail ? specifier.slice(0, -2) : specifier;
  const pattern = body.split("*").map(escapeRegExp).join(".*");
  const regex = new RegExp(`^${pattern}${optionalTail ? "(?: .*)?" : ""}$`, "is");
  return (command) => regex.test(command);
}

function fileRule(tools: readonly [string, string][], specifier: string, whole: boolean, rule: string): ClaudeRule | { error: string } {
  if (whole) return { tools: tools.map(([name]) => name), conditions: [] };
  const pathGlob = toolgatePathGlob(specifier);
  if (pathGlob === undefined)
    return { error: `"${rule}": "${specifier}" is not a path pattern Claude Code reads (//absolute, ~/home, /project, ./relative or a name)` };
  return { tools: tools.map(([name]) => name), conditions: tools.map(([, key]) => ({ key, shell: false, pathGlob })) };
}

/**
 * A gitignore-style path of Claude Code's rules as a toolgate path glob: `//etc/**` is `/etc/**`, `~/x`
 * stays (toolgate expands it), `/src/**` is `src/**` (from the project's root), `./x` is `x`, and a pattern
 * with no `/` matches at any depth (`*.env` is `**\/*.env`).
 */
export function toolgatePathGlob(specifier: string): string | undefined {
  if (specifier === "" || specifier.includes("\0")) return undefined;
  if (specifier.startsWith("//")) return specifier.slice(1);
  if (specifier.startsWith("~/") || specifier === "~") return specifier;
  if (specifier.startsWith("/")) return specifier.slice(1) || "**";
  const relative = specifier.startsWith("./") ? specifier.slice(2) : specifier;
  if (relative === "" || relative === ".") return "**";
  const trimmed = relative.endsWith("/") ? `${relative}**` : relative;
  // gitignore: a pattern with no slash but at its end names a file or folder at any depth.
  return specifier.startsWith("./") || relative.slice(0, -1).includes("/") ? trimmed : `**/${trimmed}`;
}

function webFetchRule(specifier: string, whole: boolean, rule: string, unreadableMatches: boolean): ClaudeRule | { error: string } {
  if (whole) return { tools: ["WebFetch"], conditions: [] };
  const domain = /^domain:(.+)$/.exec(specifier)?.[1]?.toLowerCase();
  if (domain === undefined)
    return { error: `"${rule}": WebFetch takes "domain:<host>" (WebFetch(domain:example.com)); for another condition write "WebFetch:url=<glob>"` };
  return { tools: ["WebFetch"], conditions: [{ key: "url", shell: false, value: hostMatcher(domain, unreadableMatches) }] };
}

/**
 * `example.com` is that host; `*.example.com` any host below it. A value that is no URL with a host
 * matches a deny or ask (it cannot be told apart from the host named) and never an allow.
 */
function hostMatcher(domain: string, unreadableMatches: boolean): (url: string) => boolean {
  const below = domain.startsWith("*.") ? domain.slice(1) : undefined;
  return (url) => {
    const host = hostOf(url);
    if (host === undefined) return unreadableMatches;
    return below === undefined ? host === domain : host.endsWith(below) && host.length > below.length;
  };
}

/** The host of a URL, lower case, without a trailing dot; undefined when the text is no URL with a host. */
function hostOf(url: string): string | undefined {
  try {
    const host = new URL(url).hostname.toLowerCase();
    return host === "" ? undefined : host.replace(/\.$/, "");
  } catch {
    return undefined;
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
