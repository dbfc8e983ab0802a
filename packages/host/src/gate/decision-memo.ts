import type { ToolArgs, ToolCall, Verdict } from "@toolgate/plugin-sdk";
import { isPlainObject } from "@toolgate/plugin-sdk/host";

interface Remembered {
  name: string;
  kind: string | undefined;
  /** Frozen snapshots: the arguments as first checked, and as the verdict left them. */
  seen: ToolArgs;
  /** Undefined once taken: the entry stays in the map as a tombstone until the next compaction. */
  verdict: Verdict | undefined;
  bytes: number;
  /** The sweep generation it was remembered in. */
  generation: number;
}

const noArgs: ToolArgs = Object.freeze({});
/** Taken entries kept before they are deleted in one pass (and at least as many as live ones). */
const tombstoneSlack = 64;

/** How much the memo may hold: entries, an estimate of their size in bytes, and for how long. */
export interface MemoLimits {
  entries: number;
  bytes: number;
  ttlMs: number;
}

const defaultMemoLimits: MemoLimits = { entries: 10_000, bytes: 32 * 1024 * 1024, ttlMs: 10 * 60 * 1000 };

/**
 * Verdicts of calls this host has gated but not yet run, by call id. `callTool(call, { skipPreToolCallHook })`
 * takes the verdict from here; a call the gate has not seen (or one whose name, kind or arguments changed
 * since) finds nothing, so the flag cannot skip the gate. The oldest entries are dropped past the entry
 * or byte limit, and every entry within `ttlMs`: a dropped verdict only means the call is gated again.
 */
export class DecisionMemo {
  readonly #entries = new Map<string, Remembered>();
  readonly #limits: MemoLimits;
  #bytes = 0;
  #live = 0;
  /**
   * Age is counted in sweeps every half `ttlMs` rather than read from a clock, which costs more per
   * call than the rest of remembering: an entry goes at the second sweep after it came.
   */
  #generation = 0;
  #sweeper: ReturnType<typeof setTimeout> | undefined;

  constructor(limits: Partial<MemoLimits> = {}) {
    this.#limits = { ...defaultMemoLimits, ...limits };
  }

  /**
   * `call` is the host's frozen snapshot, so its arguments are the ones the hooks saw; the verdict's
   * args are frozen too. Comparing is left until `take`, which most checked calls never reach.
   * `bytes` estimates what the snapshot and the verdict hold. An id seen before is updated in place:
   * V8 shrinks a Map's table on a `delete` that leaves it nearly empty, so the common "remember one,
   * take it, remember the next" rhythm would reallocate the table on every call.
   */
  remember(call: ToolCall, verdict: Verdict, bytes = 0): void {
    const entry = this.#entries.get(call.id);
    if (entry === undefined) {
      this.#entries.set(call.id, { name: call.name, kind: call.kind, seen: call.args, verdict, bytes, generation: this.#generation });
      this.#live++;
    } else {
      if (entry.verdict === undefined) this.#live++;
      this.#bytes -= entry.bytes;
      entry.name = call.name;
      entry.kind = call.kind;
      entry.seen = call.args;
      entry.verdict = verdict;
      entry.bytes = bytes;
      entry.generation = this.#generation;
    }
    this.#bytes += bytes;
    if (this.#live > this.#limits.entries || this.#bytes > this.#limits.bytes) this.#evictOldest();
    this.#sweeper ??= startSweeper(this);
  }

  /** The verdict for this exact call (a host snapshot), removed so that one decision serves one execution. */
  take(call: ToolCall): Verdict | undefined {
    const remembered = this.#entries.get(call.id);
    if (remembered?.verdict === undefined) return undefined;
    if (remembered.name !== call.name || remembered.kind !== call.kind) return undefined;
    const args = fingerprint(call.args);
    const { seen, verdict } = remembered;
    // Without a modify the verdict holds the very snapshot the hooks saw: one serialisation is enough.
    const matches = args === fingerprint(seen) || (verdict.args !== seen && args === fingerprint(verdict.args));
    if (!matches) return undefined;
    this.#consume(remembered);
    if (this.#entries.size - this.#live > Math.max(tombstoneSlack, this.#live)) this.#compact();
    return verdict;
  }

  clear(): void {
    this.#entries.clear();
    this.#bytes = 0;
    this.#live = 0;
    if (this.#sweeper !== undefined) clearTimeout(this.#sweeper);
    this.#sweeper = undefined;
  }

  /** Called every half `ttlMs` while entries remain: drops those remembered two sweeps ago or earlier. */
  sweep(): void {
    this.#generation++;
    const oldest = this.#generation - 1;
    for (const entry of this.#entries.values()) if (entry.verdict !== undefined && entry.generation < oldest) this.#consume(entry);
    this.#compact();
    this.#sweeper = this.#live > 0 ? startSweeper(this) : undefined;
  }

  get ttlMs(): number {
    return this.#limits.ttlMs;
  }

  /** Verdicts held and not yet taken. */
  get size(): number {
    return this.#live;
  }

  /** The estimated bytes held. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Drops what an entry holds; the entry itself stays as a tombstone. */
  #consume(entry: Remembered): void {
    this.#bytes -= entry.bytes;
    this.#live--;
    entry.verdict = undefined;
    entry.seen = noArgs;
    entry.bytes = 0;
  }

  #compact(): void {
    for (const [id, entry] of this.#entries) if (entry.verdict === undefined) this.#entries.delete(id);
  }

  /** Past the entry or byte limit: the map iterates in first-remembered order, so the oldest go first. */
  #evictOldest(): void {
    const { entries, bytes } = this.#limits;
    for (const [id, entry] of this.#entries) {
      const over = this.#live > entries || this.#bytes > bytes;
      if (!over && entry.verdict !== undefined) break;
      if (entry.verdict !== undefined) this.#consume(entry);
      this.#entries.delete(id);
    }
  }
}

// Unref'd: remembered verdicts never keep a process alive.
function startSweeper(memo: DecisionMemo): ReturnType<typeof setTimeout> {
  const timer = setTimeout(() => memo.sweep(), Math.min(2 ** 31 - 1, Math.max(1, Math.ceil(memo.ttlMs / 2))));
  timer.unref();
  return timer;
}

/**
 * JSON of arguments that are data all the way down. Anything else (a Date, a Map, a class instance) is
 * kept by reference in a frozen snapshot and could change after the check, so it never matches: such a
 * call is gated again rather than trusted.
 */
function fingerprint(args: unknown): string {
  if (!holdsOnlyData(args)) return `not data:${Math.random()}`;
  return JSON.stringify(args) ?? "";
}

function holdsOnlyData(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return typeof value !== "function" && typeof value !== "bigint" && typeof value !== "symbol";
  if (Array.isArray(value)) return value.every(holdsOnlyData);
  if (!isPlainObject(value)) return false;
  for (const key of Object.keys(value)) if (!holdsOnlyData(value[key])) return false;
  return true;
}
