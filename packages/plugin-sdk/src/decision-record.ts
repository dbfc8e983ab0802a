import type { PolicyKind, PolicySource, Verdict } from "./results.js";
import type { ToolArgs } from "./tool-call.js";

/** What one participant of the gate answered about a call: `none` is no opinion. */
export type ParticipantAction = "allow" | "ask" | "block" | "modify" | "none" | "error" | "timeout";

/** One plugin, permission rule or configured hook that had its say on a call, in the order it ran. */
export interface DecisionParticipant {
  kind: PolicyKind;
  /** The plugin's name, the rule as written (`bash:command=rm *`), the command, URL or model. */
  name: string;
  action: ParticipantAction;
  /** The participant's reason or message, or what went wrong. */
  message?: string;
  /** How long it took, in milliseconds. */
  ms: number;
  /**
   * The participant runs in shadow mode (`shadow: true` in its config): it was asked as usual and its
   * answer is recorded, but it took no part in the verdict. `shadowVerdict` says what it would have caused.
   */
  shadow?: true;
}

/**
 * One decided call, as the host's `decision` event carries it and `.toolgate/decisions.jsonl` holds it
 * (one JSON line each). The same call gives the same record on every surface, but for `time`,
 * `surface`, `ms` and each participant's `ms`.
 */
export interface DecisionRecord {
  v: 1;
  /** When the call was decided: ISO 8601, UTC, with milliseconds. */
  time: string;
  /** Who asked: `"library"`, `"hook:claude-code"`, `"serve"`, `"mcp-proxy"`, `"ai-sdk"`, … */
  surface: string;
  session: string;
  callId: string;
  tool: string;
  /** The call's kind (`"shell"`, `"mcp"`, …); `"function"` when the caller gave none. */
  kind: string;
  /**
   * What the call ran, on one line: a shell call's command, else the path, URL or query it names; at most
   * 160 characters, recognisable secrets (API keys, tokens, `PASSWORD=…`, a URL's password) as `***`.
   */
  summary?: string;
  /** The gate's final action (an `ask` settled through `onAsk` is recorded as its answer). */
  verdict: Verdict["action"];
  /** What became of the call, where the surface writing the record knows it. */
  outcome?: "ok" | "error" | "blocked";
  /** Who decided; absent when nobody objected or allowed explicitly. */
  source?: PolicySource;
  participants: DecisionParticipant[];
  /** `sha256:` and the hex digest of the arguments as canonical JSON (keys sorted). */
  argsDigest: string;
  /** The arguments themselves, only with `decisions: { args: "full" }`. */
  args?: ToolArgs;
  /** `sha256:` and 16 hex digits: a digest of the plugins (name, version, options), rules and hooks in force. */
  policy: string;
  /** The call ran inside a sandbox (`@toolgate/sandbox`); `args` and `argsDigest` are still the call as the agent asked it. */
  contained?: true;
  /** How long the decision took, in milliseconds. */
  ms: number;
}

/**
 * The verdict a call would have had if this shadow participant had taken part: its block (and its error or
 * timeout, as the host fails closed) or its ask, where stricter than `verdict` (block > ask > allow);
 * else `verdict`. A `modify`, an allow or no opinion leaves the verdict as it is.
 */
export function shadowVerdict(verdict: Verdict["action"], action: ParticipantAction): Verdict["action"] {
  if (action === "block" || action === "error" || action === "timeout") return "block";
  if (action === "ask" && verdict !== "block") return "ask";
  return verdict;
}
