import type { ToolArgs, ToolCall, Verdict } from "@toolgate/plugin-sdk";
import { isPlainObject } from "@toolgate/plugin-sdk/host";

interface Remembered {
  name: string;
  kind: string | undefined;
  /** Frozen snapshots: the arguments as first checked, and as the verdict left them. */
  seen: ToolArgs;
  verdict: Verdict;
  bytes: number;
  /** The sweep generation it was remembered in. */
  generation: number;
}

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
   * `bytes` estimates what the snapshot and the verdict hold.
   */
  remember(call: ToolCall, verdict: Verdict, bytes = 0): void {
    this.#forget(call.id);
    this.#entries.set(call.id, { name: call.name, kind: call.kind, seen: call.args, verdict, bytes, generation: this.#generation });
    this.#bytes += bytes;
    if (this.#entries.size > this.#limits.entries || this.#bytes > this.#limits.bytes) this.#evict(-Infinity);
    this.#sweeper ??= startSweeper(this);
  }

  /** The verdict for this exact call (a host snapshot), removed so that one decision serves one execution. */
  take(call: ToolCall): Verdict | undefined {
    const remembered = this.#entries.get(call.id);
    if (!remembered) return undefined;
    if (remembered.name !== call.name || remembered.kind !== call.kind) return undefined;
    const args = fingerprint(call.args);
    const { seen, verdict } = remembered;
    // Without a modify the verdict holds the very snapshot the hooks saw: one serialisation is enough.
    const matches = args === fingerprint(seen) || (verdict.args !== seen && args === fingerprint(verdict.args));
    if (!matches) return undefined;
    this.#forget(call.id);
    return verdict;
  }

  clear(): void {
    this.#entries.clear();
    this.#bytes = 0;
    if (this.#sweeper !== undefined) clearTimeout(this.#sweeper);
    this.#sweeper = undefined;
  }

  /** Called every half `ttlMs` while entries remain: drops those remembered two sweeps ago or earlier. */
  sweep(): void {
    this.#generation++;
    this.#evict(this.#generation - 1);
    this.#sweeper = this.#entries.size > 0 ? startSweeper(this) : undefined;
  }

  get ttlMs(): number {
    return this.#limits.ttlMs;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The estimated bytes held. */
  get bytes(): number {
    return this.#bytes;
  }

  #forget(id: string): void {
    const entry = this.#entries.get(id);
    if (!entry) return;
    this.#bytes -= entry.bytes;
    this.#entries.delete(id);
  }

  /** The map iterates oldest first, so eviction stops at the first entry that may stay. */
  #evict(oldestGeneration: number): void {
    const { entries, bytes } = this.#limits;
    for (const [id, entry] of this.#entries) {
      if (this.#entries.size <= entries && this.#bytes <= bytes && entry.generation >= oldestGeneration) return;
      this.#forget(id);
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
