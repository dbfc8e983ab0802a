import type { DecisionRecord, ParticipantAction, PolicySource, SessionInfo, ToolCall, Verdict } from "@toolgate/plugin-sdk";

/**
 * Milliseconds on a monotonic clock. `process.uptime()` reads the same clock as `performance.now()`
 * without the `performance` global, whose first use loads perf_hooks: milliseconds of a hook process
 * with no plugins, which otherwise never touches it.
 */
export function clockMs(): number {
  return process.uptime() * 1000;
}

/** The wall-clock time of a `clockMs()` reading, in ms since the epoch. */
export function epochMsOf(clockReading: number): number {
  clockOrigin ??= Date.now() - clockMs();
  return clockOrigin + clockReading;
}
let clockOrigin: number | undefined;

/**
 * What the gate notes about one call while it decides, for its record: made only when someone wants
 * records, filled with plain values on the hot path, and turned into a `DecisionRecord` later.
 */
export class DecisionDraft {
  /** `clockMs()` at the entry. */
  readonly startedAt = clockMs();
  /** Set when the gate decided the call (not when it handed back a remembered verdict). */
  decided = false;
  ms = 0;
  verdict: Verdict | undefined;
  outcome: DecisionRecord["outcome"];
  /** Each participant as four entries (source, action, message, ms): one array, however many took part. */
  parts: unknown[] | undefined;
  /** Built already when a `decision` listener needed it. */
  record: DecisionRecord | undefined;

  constructor(
    readonly call: ToolCall,
    readonly surface: string,
    readonly session: SessionInfo,
  ) {}

  /** One participant's answer, in the order they ran. */
  add(source: PolicySource, action: ParticipantAction, message: string | undefined, ms: number): void {
    (this.parts ??= []).push(source, action, message, ms);
  }

  /** The verdict the caller gets: the decision's time ends here. */
  settle(verdict: Verdict): void {
    this.ms = clockMs() - this.startedAt;
    this.verdict = verdict;
  }
}
