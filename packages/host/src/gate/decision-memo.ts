import { isPlainObject, type ToolArgs, type ToolCall, type Verdict } from "@toolgate/plugin-sdk";

interface Remembered {
  name: string;
  /** JSON of the arguments when the verdict was remembered; left undefined while `seen` can stand in for it. */
  fingerprint: string | undefined;
  seen: ToolArgs | undefined;
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
   * `seen` is the frozen copy of `call.args` the hooks were given, made in the same synchronous turn as
   * this call. When it holds nothing but data it can never change, so its JSON is the JSON `call.args`
   * has now: the serialising is then left to `take`, which most checked calls never reach.
   */
  remember(call: ToolCall, verdict: Verdict, seen?: ToolArgs): void {
    const deferred = seen !== undefined && holdsOnlyData(seen);
    this.#entries.delete(call.id);
    this.#entries.set(call.id, { name: call.name, fingerprint: deferred ? undefined : fingerprint(call.args), seen: deferred ? seen : undefined, verdict });
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
    const rememberedArgs = remembered.fingerprint ?? fingerprint(remembered.seen);
    if (args !== rememberedArgs && args !== fingerprint(remembered.verdict.args)) return undefined;
    this.#entries.delete(call.id);
    return remembered.verdict;
  }

  get size(): number {
    return this.#entries.size;
  }
}

function fingerprint(args: unknown): string {
  try {
    return JSON.stringify(args) ?? "";
  } catch {
    // Arguments JSON cannot express never match, so such a call is always gated again.
    return `unserializable:${Math.random()}`;
  }
}

/**
 * True when a frozen copy holds only primitives, plain objects and plain arrays. The copy freezes those
 * all the way down but keeps any other object (a Date, a Map, a class instance) by reference, and such
 * an object could still change, or serialise differently, after the verdict.
 */
function holdsOnlyData(value: unknown): boolean {
  if (typeof value === "function") return false;
  if (typeof value !== "object" || value === null) return true;
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) return false;
    for (const item of value) if (!holdsOnlyData(item)) return false;
    return true;
  }
  if (!isPlainObject(value)) return false;
  for (const key of Object.keys(value)) if (!holdsOnlyData(value[key])) return false;
  return true;
}
