import { shadowVerdict, type DecisionParticipant } from "@toolgate/plugin-sdk";
import type { DecisionRecord } from "./record.js";

/** A shadow participant's answer that would have changed the record's verdict, and to what. */
export interface ShadowChange {
  participant: DecisionParticipant;
  verdict: DecisionRecord["verdict"];
}

/** The shadow participants of a record whose would-be verdict differs from the record's, in the order they ran. */
export function shadowChanges(record: DecisionRecord): ShadowChange[] {
  const changes: ShadowChange[] = [];
  for (const participant of record.participants) {
    if (participant.shadow !== true) continue;
    const verdict = shadowVerdict(record.verdict, participant.action);
    if (verdict !== record.verdict) changes.push({ participant, verdict });
  }
  return changes;
}

const pastTense: Record<DecisionRecord["verdict"], string> = { block: "blocked", ask: "asked", allow: "allowed" };

/** `would have blocked: <message>`, or `would have blocked (it failed: <message>)` for an error or a timeout. */
export function shadowPhrase({ participant, verdict }: ShadowChange): string {
  const failed = participant.action === "error" || participant.action === "timeout";
  const message = participant.message;
  if (failed)
    return `would have ${pastTense[verdict]} (${participant.action === "timeout" ? "it timed out" : "it failed"}${message === undefined ? "" : `: ${message}`})`;
  return message === undefined ? `would have ${pastTense[verdict]}` : `would have ${pastTense[verdict]}: ${message}`;
}
