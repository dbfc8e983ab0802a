import type { ToolCall, ToolResult, Verdict } from "@toolgate/plugin-sdk";

export const agentNames = ["claude-code", "gemini-cli", "codex", "copilot-cli"] as const;
export type AgentName = (typeof agentNames)[number];

/** One hook invocation, in toolgate's terms. */
export type HookRequest = HookRequestBase & ({ event: "pre" } | { event: "post"; result: ToolResult });

interface HookRequestBase {
  /** The project folder the agent runs in: plugins and config are found from here. */
  cwd: string | undefined;
  /** The agent's session id, handed to plugins as `ctx.session.id`. */
  sessionId: string | undefined;
  call: ToolCall;
}

/** What the hook prints (one JSON document, or nothing) and the exit code it ends with. */
export interface HookAnswer {
  /** Written to stdout as one line of JSON; `undefined` prints nothing. */
  body: Record<string, unknown> | undefined;
  exitCode: number;
  /** A line for stderr: the agent reads it as the reason when the exit code is 2. */
  stderr?: string;
}

/** Where `toolgate init` writes the hook and how it recognises it. */
export interface AgentSettings {
  /** The settings file, relative to the project folder. */
  file: string;
  /** The document with toolgate's hook entries merged in; other entries are kept, none is added twice. */
  install(document: Record<string, unknown>, command: string): Record<string, unknown>;
  /** The commands of toolgate hook entries found in the document (empty when none is installed). */
  installedCommands(document: Record<string, unknown>): string[];
}

/** One coding agent's hook protocol: its input turned into a tool call, a verdict turned into its answer. */
export interface AgentProtocol {
  name: AgentName;
  /** How the agent names the events toolgate handles, for messages and docs. */
  events: { pre: string; post: string };
  /** Throws `HookInputError` when the input is not this agent's tool hook input. */
  parseInput(input: unknown): HookRequest;
  answerPre(verdict: Verdict, call: ToolCall): HookAnswer;
  answerPost(): HookAnswer;
  /**
   * A deny for a failure (a plugin that did not load, a bad config, bad input, a crash). `event` is
   * undefined when the input could not even be read.
   */
  denyForFailure(reason: string, event: "pre" | "post" | undefined): HookAnswer;
  settings: AgentSettings;
  /**
   * Shell code run when the hook command exits with a code toolgate never uses (Node.js failed before
   * toolgate's code ran: a missing file, a broken install): it turns that into this agent's deny.
   */
  startFailureFallback: string;
  /** A pre-tool input for `toolgate doctor` to send to the installed hook. */
  sampleInput(cwd: string): Record<string, unknown>;
  /** True when `stdout` (and the exit code) is a well-formed answer of this agent's protocol to a pre-tool input. */
  isPreAnswer(stdout: string, exitCode: number): boolean;
}
