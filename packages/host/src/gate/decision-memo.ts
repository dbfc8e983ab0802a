import { isPlainObject, type ToolArgs, type ToolCall, type Verdict } from "@toolgate/plugin-sdk";

interface Remembered {
  name: string;
  /** Frozen snapshots: the arguments as first checked, and as the verdict left them. */
  seen: ToolArgs;
  verdict: Verdict;
}

/**
 * Verdicts of calls this host has gated but not yet run, by call id. `callTool(call, { skipPreToolCallHook })`
 * takes the verdict from here; a call the gate has not seen (or one whose name or arguments changed
 * since) finds nothing, so the flag cannot skip the gate. Old entries are dropped past `capacity`.
 */
export class DecisionMemo {
  readonly #entries = new Map<string, Remembered>();

  constructor(readonly capacity = 10_000) {}

  /**
   * `seen` is the deeply frozen copy of the arguments taken before the hooks ran, and the verdict's args
   * are frozen too, so neither can change before `take` compares them: comparing is left until then,
   * which most checked calls never reach.
   */
  remember(call: ToolCall, verdict: Verdict, seen: ToolArgs): void {
    this.#entries.delete(call.id);
    this.#entries.set(call.id, { name: call.name, seen, verdict });
    if (this.#entries.size > this.capacity) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
  }

  /** The verdict for this exact call, removed so that one decision serves one execution. */
  take(call: ToolCall): Verdict | undefined {
    const remembered = this.#entries.get(call.id);
    if (!remembered || remembered.name !== call.name) return undefined;
    const args = fingerprint(call.args);
    const { seen, verdict } = remembered;
    // Without a modify the verdict holds the very snapshot the hooks saw: one serialisation is enough.
    const matches = args === fingerprint(seen) || (verdict.args !== seen && args === fingerprint(verdict.args));
    if (!matches) return undefined;
    this.#entries.delete(call.id);
    return remembered.verdict;
  }

  get size(): number {
    return this.#entries.size;
  }
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
