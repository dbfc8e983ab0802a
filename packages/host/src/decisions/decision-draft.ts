import type { DecisionRecord, ParticipantAction, PolicySource, PreToolCallDecision, SessionInfo, ToolCall, Verdict } from "@toolgate/plugin-sdk";

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

/** How many entries of `DecisionDraft.parts` make one participant. */
export const partStride = 5;

/**
 * One call's record in the making: made only when someone wants records, it listens to the gate's run
 * (the gate's `RunListener`), keeps plain values on the hot path, and becomes a `DecisionRecord` later.
 */
export class DecisionDraft {
  /** The gate's run is not kept quiet for a record: events and warnings go out as usual. */
  readonly quiet = false;
  /** `clockMs()` at the entry. */
  readonly startedAt = clockMs();
  /** Set when the gate decided the call (not when it handed back a remembered verdict). */
  decided = false;
  ms = 0;
  verdict: Verdict | undefined;
  outcome: DecisionRecord["outcome"];
  /** Each participant as five entries (source, action, message, ms, shadow): one array, however many took part. */
  parts: unknown[] | undefined;
  /** Built already when a `decision` listener needed it. */
  record: DecisionRecord | undefined;

  constructor(
    readonly call: ToolCall,
    readonly surface: string,
    readonly session: SessionInfo,
  ) {}

  /** One participant's answer, in the order they ran. */
  add(source: PolicySource, action: ParticipantAction, message: string | undefined, ms: number, shadow = false): void {
    (this.parts ??= []).push(source, action, message, ms, shadow);
  }

  deciding(): void {
    this.decided = true;
  }

  none(_plugin: string, source: PolicySource, ms: number, shadow: boolean): void {
    this.add(source, "none", undefined, ms, shadow);
  }

  decision(_plugin: string, source: PolicySource, decision: PreToolCallDecision, _args: unknown, ms: number, shadow: boolean): void {
    const message = decision.action === "modify" ? undefined : decision.action === "allow" ? decision.reason : decision.message;
    this.add(source, decision.action, message, ms, shadow);
  }

  failure(_plugin: string, source: PolicySource, message: string, timedOut: boolean, ms: number, shadow: boolean): void {
    this.add(source, timedOut ? "timeout" : "error", message, ms, shadow);
  }

  invalid(_plugin: string, source: PolicySource, reason: string, ms: number, shadow: boolean): void {
    this.add(source, "none", `invalid result, ignored as no opinion: ${reason}`, ms, shadow);
  }

  /** The verdict the caller gets: the decision's time ends here. */
  settle(verdict: Verdict): void {
    this.ms = clockMs() - this.startedAt;
    this.verdict = verdict;
  }
}
