/** Who or what answered for one call, as the record lists them (see the contract's "one record per decided call"). */
export interface RecordParticipant {
  kind: string;
  name: string;
  action: string;
  message?: string;
  ms?: number;
}

/** One line of `.toolgate/decisions.jsonl`: the fields the readers use; the rest is kept as read. */
export interface DecisionRecord {
  v: 1;
  time: string;
  surface: string;
  session?: string;
  callId?: string;
  tool: string;
  kind?: string;
  /** What the call ran, masked and short (absent in records from before it was recorded). */
  summary?: string;
  verdict: "allow" | "ask" | "block";
  outcome?: string;
  source?: { kind: string; name: string };
  participants: RecordParticipant[];
  argsDigest?: string;
  args?: unknown;
  policy?: string;
  ms?: number;
}

const verdicts = new Set(["allow", "ask", "block"]);

/**
 * The record on one line, or undefined when the line is not one: a writer may be mid-line, and a file
 * anyone can write to may hold anything. Only the fields the views rely on are checked.
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
    (participant.message === undefined || typeof participant.message === "string")
  );
}

/** The message of whoever decided: the deciding participant's, else the first one that objected with a message. */
export function recordMessage(record: DecisionRecord): string | undefined {
  const { source } = record;
  const decider = source === undefined ? undefined : record.participants.find((entry) => entry.kind === source.kind && entry.name === source.name);
  return decider?.message ?? record.participants.find((entry) => entry.action === record.verdict && entry.message !== undefined)?.message;
}
