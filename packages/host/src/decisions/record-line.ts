import type { PolicySource } from "@toolgate/plugin-sdk";
import { partStride, type DecisionDraft } from "./decision-draft.js";
import { msText } from "./round-ms.js";

/** What a record holds besides the draft, worked out by the recorder. */
export interface RecordFacts {
  time: string;
  argsDigest: string;
  /** What the call ran, masked and short (`callSummary`). */
  summary: string | undefined;
  /** The arguments' canonical JSON, when records carry them in full. */
  argsText: string | undefined;
  policy: string;
}

const quote = JSON.stringify;

/**
 * Decision records as JSON lines, written straight from the draft: the same text JSON.stringify gives
 * for the record the recorder builds for `decision` listeners (record-line.test.ts holds them equal),
 * at a fraction of its cost. Most of a line repeats call after call (each participant's kind and name,
 * the surface, the session), so those parts are quoted once and kept; only the call's own fields,
 * answers and times are written each time.
 */
export class RecordLines {
  readonly #participantHeads = new WeakMap<PolicySource, string>();
  readonly #noneHeads = new WeakMap<PolicySource, string>();
  readonly #surface = new LastQuoted();
  readonly #session = new LastQuoted();

  line(draft: DecisionDraft, facts: RecordFacts): string {
    const { call } = draft;
    const verdict = draft.verdict!;
    let line = `{"v":1,"time":"${facts.time}","surface":${this.#surface.of(draft.surface)},"session":${this.#session.of(draft.session.id)}`;
    line += `,"callId":${quote(call.id)},"tool":${quote(call.name)},"kind":${quote(call.kind ?? "function")}`;
    if (facts.summary !== undefined) line += `,"summary":${quote(facts.summary)}`;
    line += `,"verdict":"${verdict.action}"`;
    if (draft.outcome !== undefined) line += `,"outcome":"${draft.outcome}"`;
    if (verdict.source !== undefined) line += `,"source":${this.#sourceFields(verdict.source)}}`;
    line += `,"participants":[${this.#participants(draft.parts)}],"argsDigest":"${facts.argsDigest}"`;
    if (facts.argsText !== undefined) line += `,"args":${facts.argsText}`;
    line += `,"policy":"${facts.policy}"`;
    if (verdict.contained) line += `,"contained":true`;
    return `${line},"ms":${msText(draft.ms)}}\n`;
  }

  #participants(parts: readonly unknown[] | undefined): string {
    if (parts === undefined) return "";
    let text = "";
    for (let index = 0; index < parts.length; index += partStride) {
      if (index > 0) text += ",";
      const source = parts[index] as PolicySource;
      const action = parts[index + 1] as string;
      const message = parts[index + 2] as string | undefined;
      // No opinion, the most common answer, up to its time: one kept text.
      if (action === "none" && message === undefined) text += this.#noneHead(source);
      else {
        text += `${this.#sourceFields(source)},"action":"${action}"`;
        if (message !== undefined) text += `,"message":${quote(message)}`;
        text += `,"ms":`;
      }
      text += msText(parts[index + 3] as number);
      text += parts[index + 4] === true ? `,"shadow":true}` : "}";
    }
    return text;
  }

  /** `{"kind":…,"name":…,"action":"none","ms":`, kept per source as `#sourceFields` is. */
  #noneHead(source: PolicySource): string {
    let head = this.#noneHeads.get(source);
    if (head === undefined) {
      head = `${this.#sourceFields(source)},"action":"none","ms":`;
      this.#noneHeads.set(source, head);
    }
    return head;
  }

  /** `{"kind":…,"name":…`, unclosed: kept per source, which the registry and the rules hold for the host's life. */
  #sourceFields(source: PolicySource): string {
    let head = this.#participantHeads.get(source);
    if (head === undefined) {
      head = `{"kind":${quote(source.kind)},"name":${quote(source.name)}`;
      this.#participantHeads.set(source, head);
    }
    return head;
  }
}

/** A string as JSON, kept while the same string comes again (a host's surface, a session's id). */
class LastQuoted {
  #text: string | undefined;
  #quoted = "";

  of(text: string): string {
    if (text !== this.#text) {
      this.#text = text;
      this.#quoted = quote(text);
    }
    return this.#quoted;
  }
}
