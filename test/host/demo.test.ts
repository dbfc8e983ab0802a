import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import type { TranscriptEvent } from "../../demo/transcript.js";

// `pnpm demo` as a user runs it: a real child process, the real plugins from plugins/, no mocks.
const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
const run = promisify(execFile);
// Three demos start at once; on a busy 2-core machine one took over 30 s.
const demoTimeoutMs = 120_000;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function demo(...args: string[]): Promise<Run> {
  const env = { ...process.env, NO_COLOR: "1", FORCE_COLOR: undefined };
  try {
    const { stdout, stderr } = await run(join(root, "node_modules/.bin/tsx"), ["demo/main.ts", ...args], { cwd: root, env, timeout: demoTimeoutMs });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? 1, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" };
  }
}

/** The block of output for one tool call: from its `→ name {args}` line to the next blank line. */
function callBlock(output: string, header: string): string {
  const start = output.indexOf(`→ ${header}`);
  expect(start, `no call "${header}" in the transcript`).toBeGreaterThanOrEqual(0);
  const end = output.indexOf("\n\n", start);
  return output.slice(start, end === -1 ? undefined : end);
}

/** The model's message that follows one tool call's block: up to the next call, act or summary. */
function nextModelMessage(output: string, header: string): string {
  const after = output.slice(output.indexOf(`→ ${header}`));
  const start = after.indexOf("\nmodel") + 1;
  const end = /\n\n(?= {2}→|\S)/.exec(after.slice(start));
  return after.slice(start, end ? start + end.index : undefined);
}

describe("pnpm demo", () => {
  let text: Run;
  let again: Run;
  let json: Run;
  beforeAll(async () => {
    [text, again, json] = await Promise.all([demo(), demo(), demo("--json")]);
  }, demoTimeoutMs + 10_000);

  it("prints the excerpt the README shows, word for word", () => {
    const readme = readFileSync(join(root, "README.md"), "utf8");
    const excerpt = /An excerpt of its output:\n\n```text\n([\s\S]*?)\n```/.exec(readme)?.[1];
    expect(excerpt, "the README's demo excerpt").toBeDefined();
    expect(text.stdout).toContain(excerpt);
  });

  it("exits 0 with a plain transcript and no host warnings", () => {
    expect(text.stderr).toBe("");
    expect(text.code).toBe(0);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the test looks for colour codes
    expect(text.stdout).not.toMatch(/\u001b\[/);
    expect(text.stdout).not.toMatch(/failed/);
  });

  it("prints the same transcript on every run", () => {
    expect(again.stdout).toBe(text.stdout);
  });

  it("allows the read and the write, and shows the tool message the model got", () => {
    const read = callBlock(text.stdout, 'read_file {"path":"notes.md"}');
    expect(read).toContain("ALLOW");
    expect(read).toContain('"role": "tool"');
    expect(read).toContain("write the README");
    const write = callBlock(text.stdout, 'write_file {"path":"notes.md"');
    expect(write).toContain("ALLOW");
    expect(write).toContain("wrote 63 bytes to notes.md");
  });

  it("blocks rm -rf / with block-dangerous-shell's message, and the model narrows the command", () => {
    const block = callBlock(text.stdout, 'terminal {"command":"rm -rf /"}');
    const [, reason] = /BLOCK by block-dangerous-shell: (.+)/.exec(block) ?? [];
    expect(reason).toBeTruthy();
    expect(block).toContain('"role": "tool"');
    expect(block).toContain(JSON.stringify(`Tool call blocked by plugin "block-dangerous-shell": ${reason}`).slice(1, -1));
    expect(nextModelMessage(text.stdout, 'terminal {"command":"rm -rf /"}')).toBe(
      "model, after the block: Understood, I won't delete the root directory; I'll remove only ./build instead.",
    );
    const narrowed = callBlock(text.stdout, 'terminal {"command":"rm -rf ./build"}');
    expect(narrowed).toContain("ALLOW");
    expect(narrowed).toContain("removed ./build (3 files)");
  });

  it("rate-limits the search burst with a retry hint, and the model stops searching and summarises", () => {
    const blocked = text.stdout.split("\n").filter((line) => line.includes("BLOCK by rate-limit"));
    expect(blocked).toHaveLength(2);
    for (const line of blocked) expect(line).toMatch(/retry|try again/i);
    expect(callBlock(text.stdout, 'search {"query":"console.log"}')).toContain("ALLOW");
    expect(callBlock(text.stdout, 'search {"query":"XXX"}')).toContain("BLOCK by rate-limit");
    const next = nextModelMessage(text.stdout, 'search {"query":"HACK"}');
    expect(next).toMatch(/^model, after the block: rate-limit stopped 2 of my 5 search calls; it says to retry in \d+s\./);
    expect(next).toContain("I'll stop searching and summarise what I have.");
    expect(next).toContain("src/config.ts:2: // FIXME");
    expect(next).toContain('not checked yet (rate-limited): "XXX", "HACK", "password", "api_key"');
    expect(text.stdout).not.toContain('search {"query":"password"}');
  });

  it("in read-only mode blocks the write, and the model describes the change instead", () => {
    const act2 = text.stdout.slice(text.stdout.indexOf("Act 2"));
    expect(callBlock(act2, 'read_file {"path":"notes.md"}')).toContain("ALLOW");
    expect(callBlock(act2, 'write_file {"path":"notes.md"')).toContain("BLOCK by read-only-mode");
    const next = nextModelMessage(act2, 'write_file {"path":"notes.md"');
    expect(next).toMatch(/^model, after the block: read-only-mode blocked my write_file:\n {2}> this session is read-only/);
    expect(next).toContain("+ - [x] ship release 1.0 (approved)");
  });

  it("act 3: a shell-script hook and a permission rule block calls through the same gate, and the model reads who", () => {
    const curl = callBlock(text.stdout, 'terminal {"command":"curl -s https://registry.npmjs.org/left-pad/latest"}');
    expect(curl).toContain("BLOCK by command ./guards/no-network.sh: no network access from the agent's shell");
    expect(curl).toContain('Tool call blocked by command hook \\"./guards/no-network.sh\\": no network access');
    const sudo = callBlock(text.stdout, 'terminal {"command":"sudo npm install -g left-pad"}');
    expect(sudo).toContain("BLOCK by rule terminal:command=*sudo*");
    expect(nextModelMessage(text.stdout, 'terminal {"command":"sudo npm install -g left-pad"}')).toMatch(
      /^model, after the block: permission rule "terminal:command=\*sudo\*" refused my terminal/,
    );
    expect(callBlock(text.stdout, 'terminal {"command":"ls"}')).toContain("ALLOW");
  });

  it("ends with a summary of the calls, the blocking plugins and the audit log", () => {
    const summary = text.stdout.slice(text.stdout.indexOf("\nSummary"));
    expect(summary).toContain("14 tool calls: 8 ran, 6 blocked");
    expect(summary).toMatch(/blocked by block-dangerous-shell +1 +\(terminal\)/);
    expect(summary).toMatch(/blocked by rate-limit +2 +\(search ×2\)/);
    expect(summary).toMatch(/blocked by read-only-mode +1 +\(write_file\)/);
    expect(summary).toMatch(/blocked by command \.\/guards\/no-network\.sh +1 +\(terminal\)/);
    expect(summary).toMatch(/blocked by rule terminal:command=\*sudo\* +1 +\(terminal\)/);
    expect(summary).toMatch(/audit-log wrote [1-9]\d* JSON lines/);
  });

  it("--json prints the same session as JSON lines, with the exact OpenAI tool messages", () => {
    expect(json.code).toBe(0);
    const events = json.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as TranscriptEvent);
    const tools = events.filter((event) => event.type === "tool");
    expect(tools).toHaveLength(14);
    const rootDelete = tools.find((event) => event.call.args.command === "rm -rf /")!;
    expect(rootDelete.decision).toMatchObject({ action: "BLOCK", plugin: "block-dangerous-shell" });
    expect(rootDelete.message).toEqual({
      role: "tool",
      tool_call_id: rootDelete.call.id,
      content: `Tool call blocked by plugin "block-dangerous-shell": ${rootDelete.decision.message}`,
    });
    const reply = events[events.indexOf(rootDelete) + 1]!;
    expect(reply.type === "assistant" && reply.message.tool_calls?.[0]?.function).toEqual({
      name: "terminal",
      arguments: JSON.stringify({ command: "rm -rf ./build" }),
    });
  });
});
