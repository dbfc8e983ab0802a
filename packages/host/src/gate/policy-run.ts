import type { SessionInfo, ToolCall, Verdict } from "@toolgate/plugin-sdk";
import type { DecisionDraft } from "../decisions/decision-draft.js";
import type { HookEntry } from "../registry/registry.js";
import type { HookClock } from "../invocation/run-hook.js";
import { createAggregate, type Aggregate } from "./aggregate.js";
import type { PluginExplanation } from "./explain.js";

/**
 * One call's way through every plugin's `pre_tool_call`: where it stands (`next`), what has been said
 * so far, and how to resume after an async hook. The policy loop keeps all of its state here.
 */
export class PolicyRun implements HookClock {
  readonly aggregate: Aggregate;
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
    readonly call: ToolCall,
    bytes: number,
    /** Handed to every hook as `ctx.session`. */
    readonly session: SessionInfo,
    readonly hooks: readonly HookEntry[],
    /** Keep the verdict for one later `skipPreToolCallHook` call. */
    readonly remember: boolean,
    /** Set by `explainToolCall`: every outcome is recorded, and nothing is emitted or logged. */
    readonly trace?: PluginExplanation[],
    /** Set when someone wants this call's record: each participant's answer and time go here. */
    readonly draft?: DecisionDraft,
  ) {
    this.aggregate = createAggregate(call.args, bytes);
    this.view = call;
  }
}
