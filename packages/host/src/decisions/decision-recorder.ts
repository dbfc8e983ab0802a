import type { DecisionRecord } from "@toolgate/plugin-sdk";
import type { CallSnapshot } from "../call/snapshot.js";
import type { EventBus } from "../events.js";
import { callSummary } from "./call-summary.js";
import { DecisionDraft, epochMsOf } from "./decision-draft.js";
import type { DecisionLog } from "./decision-log.js";
import { canonicalJson, sha256 } from "./digests.js";
import { isoTime } from "./iso-time.js";
import { type RecordFacts, RecordLines } from "./record-line.js";
import { recordOf } from "./record-of.js";

export interface DecisionRecorderOptions {
  events: EventBus;
  /** Where records are appended; none: only `decision` listeners get them. */
  log: DecisionLog | undefined;
  /** `"full"` puts the arguments in each record; `"digest"` only their digest. */
  args: "full" | "digest";
  /** The host's surface, for calls whose caller names none. */
  surface: string;
  /** The policy's digest, read on the first record (the policy is fixed once plugins have loaded). */
  policy: () => string;
}

/**
 * How long records gather before they are serialised and handed to the log in one write. The timer does
 * not keep a process alive: one that ends sooner (a hook process, right after answering) writes them at
 * exit, in one synchronous write (`DecisionLog.writeLeftoversSync`), instead of a round trip through
 * libuv's threads per record.
 */
const gatherMs = 25;
/** A caller deciding in a loop that never yields to timers gets its records built every this many: memory stays bounded. */
const maxPending = 512;

/**
 * One record per decided call. With no log and no `decision` listener nothing is made at all; else the
 * gate fills a draft with plain values, a listener gets the record at once, and the log gets it built,
 * serialised and written after the caller has its answer, in batches.
 */
export class DecisionRecorder {
  readonly #options: DecisionRecorderOptions;
  #pending: DecisionDraft[] = [];
  readonly #lines = new RecordLines();
  #policy: string | undefined;
  #closing = false;

  constructor(options: DecisionRecorderOptions) {
    this.#options = options;
  }

  /** A draft for one call, or undefined when nobody wants records. */
  begin({ call, session }: CallSnapshot, surface: string | undefined): DecisionDraft | undefined {
    if (this.#options.log === undefined && !this.#options.events.listens("decision")) return undefined;
    return new DecisionDraft(call, surface ?? this.#options.surface, session);
  }

  /** The call is over as far as this surface knows: its record goes out, if the gate decided it. */
  finish(draft: DecisionDraft, outcome: DecisionRecord["outcome"]): void {
    if (!draft.decided || draft.verdict === undefined) return;
    draft.outcome = outcome;
    const { events, log } = this.#options;
    if (events.listens("decision")) {
      draft.record = recordOf(draft, this.#facts(draft));
      events.emit("decision", draft.record);
    }
    if (log === undefined) return;
    if (this.#pending.length === 0) setTimeout(this.#flush, gatherMs).unref();
    if (this.#pending.push(draft) >= maxPending) this.#flush();
  }

  /** Serialises what is pending into the log: `gatherMs` after the first of them, on close, and at exit. */
  readonly #flush = (): void => {
    const drafts = this.#pending;
    if (drafts.length === 0) return;
    this.#pending = [];
    let text = "";
    for (const draft of drafts) text += draft.record === undefined ? this.#lines.line(draft, this.#facts(draft)) : `${JSON.stringify(draft.record)}\n`;
    this.#options.log!.append(text);
    if (this.#closing) void this.#options.log!.close();
  };

  /** The host closed: what is pending still goes out when it has gathered (or at exit), then the log closes. */
  close(): void {
    this.#closing = true;
    if (this.#pending.length === 0) void this.#options.log?.close();
  }

  /** Hands pending records to the log at once: for a process about to exit. */
  flushNow(): void {
    this.#flush();
  }

  /** What the record and its line both need besides the draft. */
  #facts(draft: DecisionDraft): RecordFacts {
    const argsText = canonicalJson(draft.call.args);
    return {
      time: isoTime(epochMsOf(draft.startedAt)),
      argsDigest: sha256(argsText),
      summary: callSummary(draft.call),
      argsText: this.#options.args === "full" ? argsText : undefined,
      policy: (this.#policy ??= this.#options.policy()),
    };
  }
}
