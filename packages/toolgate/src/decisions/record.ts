import type { DecisionRecord } from "@toolgate/plugin-sdk";

export type { DecisionRecord };

const verdicts = new Set(["allow", "ask", "block"]);

/**
 * The record on one line, or undefined when the line is not one: a writer may be mid-line, and a file
 * anyone can write to may hold anything. Every field the record type requires is checked; the rest is kept as read.
 */
export function parseRecord(line: string): DecisionRecord | undefined {
  if (line.trim() === "") return undefined;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  return isRecord(value) ? value : undefined;
}

function isRecord(value: unknown): value is DecisionRecord {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  return (
    record.v === 1 &&
    typeof record.time === "string" &&
    !Number.isNaN(Date.parse(record.time)) &&
    typeof record.tool === "string" &&
    typeof record.surface === "string" &&
    typeof record.session === "string" &&
    typeof record.callId === "string" &&
    typeof record.kind === "string" &&
    typeof record.argsDigest === "string" &&
    typeof record.policy === "string" &&
    typeof record.ms === "number" &&
    typeof record.verdict === "string" &&
    verdicts.has(record.verdict) &&
    (record.source === undefined || isSource(record.source)) &&
    Array.isArray(record.participants) &&
    record.participants.every(isParticipant)
  );
}

function isSource(value: unknown): boolean {
  const source = value as Record<string, unknown> | null;
  return typeof source === "object" && source !== null && typeof source.kind === "string" && typeof source.name === "string";
}

function isParticipant(value: unknown): boolean {
  const participant = value as Record<string, unknown> | null;
  return (
    typeof participant === "object" &&
    participant !== null &&
    typeof participant.kind === "string" &&
    typeof participant.name === "string" &&
    typeof participant.action === "string" &&
    typeof participant.ms === "number" &&
    (participant.message === undefined || typeof participant.message === "string") &&
    (participant.shadow === undefined || typeof participant.shadow === "boolean")
  );
}

/**
 * The message of whoever decided: the deciding participant's, else the first one that objected with a
 * message. A shadow participant took no part, so its message is never the record's.
 */
export function recordMessage(record: DecisionRecord): string | undefined {
  const { source } = record;
  const enforced = record.participants.filter((entry) => entry.shadow !== true);
  const decider = source === undefined ? undefined : enforced.find((entry) => entry.kind === source.kind && entry.name === source.name);
  return decider?.message ?? enforced.find((entry) => entry.action === record.verdict && entry.message !== undefined)?.message;
}
