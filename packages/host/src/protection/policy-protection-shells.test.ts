import { shellToolNames } from "@toolgate/plugin-sdk";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveSettings } from "../settings.js";
import { PolicyProtection } from "./policy-protection.js";

// Every call the guard and the permission rules read as a shell (`isShellCall`, `shellCommands`) is read by the protection too.

let root: string;
let project: string;
let protection: PolicyProtection;

beforeAll(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "toolgate-protect-shells-")));
  project = join(root, "proj");
  const home = join(root, "home");
  mkdirSync(join(project, "plugins"), { recursive: true });
  mkdirSync(home, { recursive: true });
  writeFileSync(join(project, "toolgate.config.json"), JSON.stringify({ plugins: [] }));
  const settings = await resolveSettings({ cwd: project, configFile: "toolgate.config.json" });
  protection = new PolicyProtection(settings, "block", home);
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

// One change to each part of the policy's home: the config, plugins/, .toolgate/, an agent's hook settings.
const changes = [
  "echo {} > toolgate.config.json",
  "rm -rf plugins",
  "cp /tmp/evil.ts plugins/evil.ts",
  "ln -sf ~/.bashrc .toolgate/decisions.jsonl",
  "echo '{}' > .claude/settings.json",
  "mv /tmp/hooks.json .codex/hooks.json",
  "echo x > ~/.gemini/settings.json",
];

// The session-input tools `shellCommands` reads, and the fields they send.
const inputTools = [
  "write_stdin",
  "send_input",
  "terminal_input",
  "write_bash",
  "send_keys",
  "write_terminal",
  "send_to_terminal",
  "terminal_write",
  "write_to_terminal",
  "stdin_write",
];
const inputFields = ["chars", "input", "text", "keys", "data"];

type Call = { name: string; args: Record<string, unknown>; kind?: string };

const spellings = (name: string) => [name, name.toUpperCase(), `mcp__shell__${name}`, `functions.${name}`, `server:${name}`];

describe("every shell tool name the guard knows, changing the policy, is refused", () => {
  const cases: [string, Call][] = [];
  for (const tool of shellToolNames)
    for (const name of spellings(tool)) for (const command of changes) cases.push([`${name}: ${command}`, { name, args: { command } }]);
  it.each(cases)("%s", (_, call) => {
    expect(protection.check(call)?.action).toBe("block");
  });
});

describe("every field a shell call runs, changing the policy, is refused", () => {
  const forms: [string, (command: string) => Call][] = [
    ["cmd", (command) => ({ name: "exec_command", args: { cmd: command } })],
    ["script", (command) => ({ name: "run_command", args: { script: command } })],
    ["argv through bash -c", (command) => ({ name: "exec", args: { argv: ["bash", "-c", command] } })],
    ["argv of one element", (command) => ({ name: "local_shell", args: { argv: [command] } })],
    ["command with args in an array", (command) => ({ name: "container.exec", args: { command: "sh", args: ["-c", command] } })],
    ["command with args as a line", (command) => ({ name: "shell", args: { command: "bash", args: `-c '${command.replaceAll("'", `'\\''`)}'` } })],
    ["a second field after a harmless one", (command) => ({ name: "bash", args: { command: "ls", cmd: command } })],
    ["kind shell, any name", (command) => ({ name: "do_the_thing", kind: "shell", args: { command } })],
    ["a shell name called a reader by its kind", (command) => ({ name: "bash", kind: "read", args: { command } })],
    ["a shell name called web by its kind", (command) => ({ name: "run_terminal_cmd", kind: "web", args: { command } })],
  ];
  const cases: [string, Call][] = forms.flatMap(([form, make]) => changes.map((command): [string, Call] => [`${form}: ${command}`, make(command)]));
  it.each(cases)("%s", (_, call) => {
    expect(protection.check(call)?.action).toBe("block");
  });

  it.each([
    ["exec argv", { name: "exec", args: { argv: ["rm", "-rf", "plugins"] } }],
    ["exec argv, a link", { name: "exec", args: { argv: ["ln", "-sf", "/tmp/evil.json", "toolgate.config.json"] } }],
    ["command and args", { name: "run_command", args: { command: "rm", args: ["-f", "toolgate.config.json"] } }],
    ["command and an args line", { name: "run_command", args: { command: "rm", args: "-f toolgate.config.json" } }],
  ] as [string, Call][])("a program and its arguments apart: %s", (_, call) => {
    expect(protection.check(call)?.action).toBe("block");
  });
});

describe("input sent to an interactive shell session, changing the policy, is refused", () => {
  const cases: [string, Call][] = [];
  for (const tool of inputTools)
    for (const name of [tool, `mcp__term__${tool}`, tool.toUpperCase()])
      for (const field of inputFields)
        for (const command of changes) cases.push([`${name}.${field}: ${command}`, { name, args: { session_id: 1, [field]: `${command}\n` } }]);
  it.each(cases)("%s", (_, call) => {
    expect(protection.check(call)?.action).toBe("block");
  });

  it.each([
    ["several lines, the change on the second", "ls\nrm -rf plugins\n"],
    ["a carriage return for a newline", "echo {} > toolgate.config.json\r"],
    ["an unfinished line naming the config", "rm toolgate.config.json"],
    ["editing keys on a line naming plugins", "rm -rf x\u0015rm -rf plugins\n"],
    ["history expansion naming .toolgate", "!! .toolgate\n"],
  ])("%s", (_, chars) => {
    expect(protection.check({ name: "write_stdin", args: { session_id: 1, chars } })?.action).toBe("block");
  });
});

describe("shell calls that leave the policy alone stay allowed", () => {
  it.each([
    ["bash", { name: "bash", args: { command: "npm test" } }],
    ["mcp shell", { name: "mcp__shell__run_command", args: { command: "cat toolgate.config.json" } }],
    ["exec argv", { name: "exec", args: { argv: ["ls", "-la", "plugins"] } }],
    ["session input", { name: "write_stdin", args: { session_id: 1, chars: "git status\n" } }],
    ["session input, an interrupt", { name: "write_stdin", args: { session_id: 1, chars: "\u0003" } }],
    ["session input, unfinished, naming nothing of the policy", { name: "write_stdin", args: { session_id: 1, chars: "npm te" } }],
    ["session input to a reader's name", { name: "send_input", args: { text: "less plugins/guard.ts\n" } }],
  ] as [string, Call][])("%s", (_, call) => {
    expect(protection.check(call)).toBeUndefined();
  });
});
