import type { DecisionParticipant, DecisionRecord, ParticipantAction, PolicySource, ToolArgs } from "@toolgate/plugin-sdk";
import { partStride, type DecisionDraft } from "./decision-draft.js";
import type { RecordFacts } from "./record-line.js";
import { roundMs } from "./round-ms.js";

/** A draft as the record `decision` listeners get: the fields in the contract's order, as `RecordLines` writes them. */
export function recordOf(draft: DecisionDraft, facts: RecordFacts): DecisionRecord {
  const { call } = draft;
  const verdict = draft.verdict!;
  const record = {
    v: 1,
    time: facts.time,
    surface: draft.surface,
    session: draft.session.id,
    callId: call.id,
    tool: call.name,
    kind: call.kind ?? "function",
  } as DecisionRecord;
  if (facts.summary !== undefined) record.summary = facts.summary;
  record.verdict = verdict.action;
  if (draft.outcome !== undefined) record.outcome = draft.outcome;
  if (verdict.source !== undefined) record.source = { kind: verdict.source.kind, name: verdict.source.name };
  record.participants = participantsOf(draft.parts);
  record.argsDigest = facts.argsDigest;
  if (facts.argsText !== undefined) record.args = JSON.parse(facts.argsText) as ToolArgs;
  record.policy = facts.policy;
  if (verdict.contained) record.contained = true;
  record.ms = roundMs(draft.ms);
  return record;
}

function participantsOf(parts: readonly unknown[] | undefined): DecisionParticipant[] {
  const participants: DecisionParticipant[] = [];
  if (parts === undefined) return participants;
  for (let index = 0; index < parts.length; index += partStride) {
    const source = parts[index] as PolicySource;
    const participant = { kind: source.kind, name: source.name, action: parts[index + 1] as ParticipantAction } as DecisionParticipant;
    const message = parts[index + 2] as string | undefined;
    if (message !== undefined) participant.message = message;
    participant.ms = roundMs(parts[index + 3] as number);
    if (parts[index + 4] === true) participant.shadow = true;
    participants.push(participant);
  }
  return participants;
}
