import type { PolicySource, PreToolCallDecision, SessionInfo, ToolArgs, ToolCall, Verdict } from "@toolgate/plugin-sdk";
import type { HostRuntime } from "../host-runtime.js";
import type { HookEntry } from "../registry/registry.js";
import type { HookClock } from "../invocation/run-hook.js";
import { createAggregate, type Aggregate } from "./aggregate.js";
import type { ShadowAnswer } from "./shadow.js";

/**
 * Listens to one run: told what each participant (a rule, a plugin, the protection) said, in the order
 * they spoke, and how long it took. The decision record's draft and explain's trace are such listeners;
 * the gate knows neither. `plugin` is the participant's name, `source` where its policy comes from,
 * `shadow` whether it runs in shadow mode (heard, never part of the verdict).
 */
export interface RunListener {
  /** Whether this listener wants the run kept quiet: no events, no warnings (explain). */
  readonly quiet: boolean;
  /** The gate decides this call now, rather than handing back a remembered verdict. */
  deciding(): void;
  none(plugin: string, source: PolicySource, ms: number, shadow: boolean): void;
  /** A valid decision; `args` are the call's arguments once it was folded in. */
  decision(plugin: string, source: PolicySource, decision: PreToolCallDecision, args: ToolArgs, ms: number, shadow: boolean): void;
  failure(plugin: string, source: PolicySource, message: string, timedOut: boolean, ms: number, shadow: boolean): void;
  invalid(plugin: string, source: PolicySource, reason: string, ms: number, shadow: boolean): void;
}

/**
 * One call's way through every plugin's `pre_tool_call`: where it stands (`next`), what has been said
 * so far, and how to resume after an async hook. The dispatch (`run-sequence.ts`) keeps all of its state here.
 */
export class PolicyRun implements HookClock {
  readonly aggregate: Aggregate;
  /** What the shadow participants would have made of the verdict, strictest first; undefined while none objected. */
  shadow: ShadowAnswer | undefined = undefined;
  /** The call as hooks see it: a new view is made only after a `modify`. */
  view: ToolCall;
  /** The index of the next hook to run. */
  next = 0;
  /** When the running hook started (`HookClock`): set as the loop starts or resumes, then by each hook's return. */
  startedAt = 0;
  /** The hook being awaited, and when it started. */
  awaiting: HookEntry | undefined;
  awaitingSince = 0;
  resolve: ((verdict: Verdict) => void) | undefined;
  resume: ((outcome: unknown) => void) | undefined;

  constructor(
    readonly runtime: HostRuntime,
    readonly call: ToolCall,
    bytes: number,
    /** Handed to every hook as `ctx.session`. */
    readonly session: SessionInfo,
    readonly hooks: readonly HookEntry[],
    /** Called with the verdict as the run concludes (the gate's memo), or undefined. */
    readonly onConcluded: ((run: PolicyRun, verdict: Verdict) => void) | undefined,
    /** Whoever listens to this run (the record's draft, explain's trace), or undefined: nobody does. */
    readonly listener: RunListener | undefined,
  ) {
    this.aggregate = createAggregate(call.args, bytes);
    this.view = call;
  }
}
