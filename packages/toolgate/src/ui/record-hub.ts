import { followLog, type LogFollower } from "../decisions/follow-log.js";
import type { RecordTest } from "../decisions/filter.js";
import type { DecisionRecord } from "../decisions/record.js";

/** A record as the page gets it: numbered in the order it was read, so the page can point at one. */
export interface NumberedRecord {
  id: number;
  record: DecisionRecord;
}

export interface Subscriber {
  matches: RecordTest;
  /** The most recent matching records, oldest first, when it subscribes. */
  backlog(records: NumberedRecord[]): void;
  /** Matching records appended since. */
  appended(records: NumberedRecord[]): void;
}

export interface RecordHub {
  subscribe(subscriber: Subscriber, backlogLimit: number): () => void;
  close(): void;
}

/** How many records the page can get at once: the log rotates at 10 MiB, some 20 000 records at most. */
const keptRecords = 50_000;

/**
 * One follower of the log for every open page: it keeps the recent records in memory, hands each new
 * subscriber its backlog, and passes each appended record to the subscribers it matches.
 */
export function createRecordHub(logPath: string, onError: (error: unknown) => void): RecordHub {
  const recent: NumberedRecord[] = [];
  const subscribers = new Set<Subscriber>();
  let nextId = 1;
  const number = (records: DecisionRecord[]) => records.map((record) => ({ id: nextId++, record }));
  const follower: LogFollower = followLog(logPath, {
    onRecords(records) {
      const added = number(records);
      // One push per record: a spread passes every record as an argument, and a large log's first read overflows the stack.
      for (const entry of added) recent.push(entry);
      if (recent.length > keptRecords) recent.splice(0, recent.length - keptRecords);
      for (const subscriber of subscribers) {
        const matching = added.filter((entry) => subscriber.matches(entry.record));
        if (matching.length > 0) subscriber.appended(matching);
      }
    },
    onError,
  });
  return {
    subscribe(subscriber, backlogLimit) {
      subscriber.backlog(recent.filter((entry) => subscriber.matches(entry.record)).slice(-backlogLimit));
      subscribers.add(subscriber);
      return () => subscribers.delete(subscriber);
    },
    close() {
      follower.close();
      subscribers.clear();
    },
  };
}
