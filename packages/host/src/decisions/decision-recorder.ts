import type { DecisionParticipant, DecisionRecord, ParticipantAction, PolicySource, ToolArgs } from "@toolgate/plugin-sdk";
import type { CallSnapshot } from "../gate/policy-run.js";
import type { EventBus } from "../events.js";
import { DecisionDraft, epochMsOf } from "./decision-draft.js";
import type { DecisionLog } from "./decision-log.js";
import { canonicalJson, sha256 } from "./digests.js";
import { isoTime } from "./iso-time.js";

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
      draft.record = this.#build(draft);
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
    for (const draft of drafts) text += `${JSON.stringify(draft.record ?? this.#build(draft))}\n`;
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

  /** The fields in the contract's order, so every line reads alike. */
  #build(draft: DecisionDraft): DecisionRecord {
    const { call } = draft;
    const verdict = draft.verdict!;
    const argsText = canonicalJson(call.args);
    const record = {
      v: 1,
      time: isoTime(epochMsOf(draft.startedAt)),
      surface: draft.surface,
      session: draft.session.id,
      callId: call.id,
      tool: call.name,
      kind: call.kind ?? "function",
      verdict: verdict.action,
    } as DecisionRecord;
    if (draft.outcome !== undefined) record.outcome = draft.outcome;
    if (verdict.source !== undefined) record.source = { kind: verdict.source.kind, name: verdict.source.name };
    record.participants = participantsOf(draft.parts);
    record.argsDigest = sha256(argsText);
    if (this.#options.args === "full") record.args = JSON.parse(argsText) as ToolArgs;
    record.policy = this.#policy ??= this.#options.policy();
    record.ms = round(draft.ms);
    return record;
  }
}

function participantsOf(parts: readonly unknown[] | undefined): DecisionParticipant[] {
  const participants: DecisionParticipant[] = [];
  if (parts === undefined) return participants;
  for (let index = 0; index < parts.length; index += 4) {
    const source = parts[index] as PolicySource;
    const participant = { kind: source.kind, name: source.name, action: parts[index + 1] as ParticipantAction } as DecisionParticipant;
    const message = parts[index + 2] as string | undefined;
    if (message !== undefined) participant.message = message;
    participant.ms = round(parts[index + 3] as number);
    participants.push(participant);
  }
  return participants;
}

// Microseconds are plenty, and keep the lines short.
function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
