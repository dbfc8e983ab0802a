import picomatch from "picomatch";
import type { DecisionRecord } from "./record.js";
import { shadowChanges } from "./shadow-answers.js";

/** What `toolgate decisions` and the page narrow the records to; every field is optional. */
export interface RecordFilter {
  /** A glob on the tool's name (`Bash`, `mcp__*`). */
  tool?: string | undefined;
  verdict?: string | undefined;
  /** The plugin, rule or hook that decided: the source's name, or `kind:name`. */
  source?: string | undefined;
  session?: string | undefined;
  /** An ISO time, or a duration back from now (`30s`, `10m`, `2h`, `7d`). */
  since?: string | undefined;
  /** Only the calls a shadow participant would have decided otherwise. */
  shadow?: boolean | undefined;
}

export type RecordTest = (record: DecisionRecord) => boolean;

export class FilterError extends Error {}

const verdicts = ["allow", "ask", "block"];
const units: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** One test for all the filter's fields; a field that cannot mean anything throws a `FilterError` naming it. */
export function createRecordTest(filter: RecordFilter, now = Date.now()): RecordTest {
  const tests: RecordTest[] = [];
  const { tool, verdict, source, session, since, shadow } = filter;
  if (isSet(tool)) {
    const matches = picomatch(tool, { nocase: false, dot: true });
    tests.push((record) => matches(record.tool));
  }
  if (isSet(verdict)) {
    // What agents and people call a block: the word the agents' own hooks answer with.
    const wanted = verdict === "deny" ? "block" : verdict;
    if (!verdicts.includes(wanted)) throw new FilterError(`--verdict ${verdict}: expected one of ${verdicts.join(", ")} (or deny, for block)`);
    tests.push((record) => record.verdict === wanted);
  }
  if (isSet(source))
    tests.push((record) => record.source !== undefined && (record.source.name === source || `${record.source.kind}:${record.source.name}` === source));
  if (isSet(session)) tests.push((record) => record.session === session);
  if (isSet(since)) {
    const from = sinceTime(since, now);
    tests.push((record) => Date.parse(record.time) >= from);
  }
  if (shadow === true) tests.push((record) => shadowChanges(record).length > 0);
  return (record) => tests.every((test) => test(record));
}

/** `--since` as a time in ms: an ISO date or time, or a duration before `now`. */
function sinceTime(since: string, now: number): number {
  const duration = /^(\d+(?:\.\d+)?)\s*([smhd])$/.exec(since.trim());
  if (duration !== null) return now - Number(duration[1]) * units[duration[2]!]!;
  const time = Date.parse(since);
  if (Number.isNaN(time)) throw new FilterError(`--since ${since}: expected a time (2026-11-27T10:00:00Z) or a duration (30s, 10m, 2h, 7d)`);
  return time;
}

function isSet(value: string | undefined): value is string {
  return value !== undefined && value !== "";
}
