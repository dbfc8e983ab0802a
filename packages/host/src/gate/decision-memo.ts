import type { ToolCall, Verdict } from "@toolgate/plugin-sdk";

interface Remembered {
  name: string;
  fingerprint: string;
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

  remember(call: ToolCall, verdict: Verdict): void {
    this.#entries.delete(call.id);
    this.#entries.set(call.id, { name: call.name, fingerprint: fingerprint(call.args), verdict });
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
    if (args !== remembered.fingerprint && args !== fingerprint(remembered.verdict.args)) return undefined;
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
