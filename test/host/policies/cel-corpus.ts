import type { ToolCallInput } from "@toolgate/host";

/**
 * The differential corpus: expressions (each one type-checks against the policy context) and calls
 * that reach their edges: missing keys, `has()`, string functions, lists and their macros, ints and
 * doubles, nested maps, null, a non-bool result and an out-of-range index.
 */
export const expressions = [
  'tool == "Bash"',
  'tool.startsWith("mcp__")',
  'kind == "shell"',
  'args.command.contains("rm -rf")',
  'has(args.command) && args.command.contains("rm -rf")',
  'has(args.path) && args.path.startsWith("/etc/")',
  'has(args.path) && args.path.endsWith(".env")',
  'has(args.path) && args.path.contains("..")',
  'has(args.command) && args.command.matches("^(sudo|doas)\\\\s")',
  'has(args.command) && args.command.lowerAscii().contains("drop table")',
  "has(args.count) && args.count > 10",
  "has(args.count) && args.count >= 10.5",
  "args.count == 3",
  "dyn(args.count) > 1",
  "has(args.count) && int(args.count) % 2 == 0",
  'has(args.flags) && "force" in args.flags',
  "has(args.flags) && args.flags.size() > 2",
  'has(args.flags) && args.flags.exists(f, f.startsWith("--no-"))',
  "has(args.flags) && args.flags.all(f, f.size() < 8)",
  'args.flags[1] == "-a"',
  "has(args.options) && has(args.options.recursive) && args.options.recursive == true",
  "has(args.options) && args.options.depth > 2",
  "args.options.recursive",
  "size(args) > 2",
  "args.size() == 0",
  'has(args.tags) && args.tags.filter(t, t == "prod").size() > 0',
  "has(args.note) && args.note == null",
  'args.command + "x" == "ls -lax"',
  'has(args.url) && args.url.startsWith("http://")',
  "has(args.content) && args.content.size() > 8",
  'session.id == "s-ana"',
  'has(session.user) && session.user == "ana"',
  'agent == "claude-code"',
  'agent == ""',
  'cwd.startsWith("/")',
  'callId.startsWith("call-1")',
  'tool in ["Bash", "Write", "Edit"] && kind != "read"',
  'has(args.path) ? args.path.startsWith("/tmp") : false',
  'tool.size() > 4 || kind.startsWith("file")',
];

export const calls: ToolCallInput[] = [
  { name: "Bash", kind: "shell", args: { command: "rm -rf /" } },
  { name: "Bash", kind: "shell", args: { command: "sudo apt install x", count: 3 } },
  { name: "Bash", args: { command: "ls -la", flags: ["-l", "-a", "--no-color"] } },
  { name: "Write", kind: "file_write", args: { path: "/etc/passwd", content: "root::0:0:root" } },
  { name: "Read", kind: "read", args: { path: "./.env" } },
  { name: "mcp__fs__read_file", kind: "mcp", args: { path: "../../secret", options: { recursive: true, depth: 5 } } },
  { name: "fetch", args: { url: "http://example.com", count: 12.5 } },
  { name: "deploy", args: {} },
  { name: "query", args: { command: "DROP TABLE users; --", count: 11, tags: ["prod", "eu"], note: null } },
  { name: "Edit", kind: "file_write", args: { path: "/tmp/x", options: { recursive: "yes", depth: 1 }, flags: ["force"] } },
  { name: "Bash", kind: "shell", args: { command: "ünïcödé ✓ echo", count: -4 } },
  { name: "tidy", args: { count: 4, flags: ["--no-verify", "-q", "x"] } },
];

export const sessions = [{ id: "s-ana", user: "ana", agent: "claude-code" }, { id: "s-bob" }];
