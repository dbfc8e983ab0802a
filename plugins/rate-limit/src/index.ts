import { definePlugin, type ToolCall } from "@toolgate/plugin-sdk";
import * as v from "valibot";
import { formatDuration, formatRetry } from "./format.js";

const pluginName = "rate-limit";

export interface RateLimitOptions {
  /** Calls allowed per tool (or in total, with `perTool: false`) within any `windowMs`. @default 5 */
  max?: number;
  /** The sliding window, in milliseconds. @default 60000 */
  windowMs?: number;
  /** Limit only these tool names; others pass untouched. @default every tool */
  tools?: string[];
  /** `true`: each tool has its own budget. `false`: all limited tools share one. @default true */
  perTool?: boolean;
  /** The clock, in milliseconds (for tests). @default Date.now */
  now?: () => number;
}

const OptionsSchema = v.strictObject(
  {
    max: v.optional(v.pipe(v.number("max must be a number"), v.integer("max must be a whole number"), v.minValue(1, "max must be 1 or more"))),
    windowMs: v.optional(
      v.pipe(v.number("windowMs must be a number"), v.finite("windowMs must be finite"), v.gtValue(0, "windowMs must be greater than 0")),
    ),
    tools: v.optional(
      v.pipe(
        v.array(v.string("each entry of tools must be a tool name (a string)"), "tools must be an array of tool names"),
        v.nonEmpty("tools must not be empty (leave it out to limit every tool)"),
      ),
    ),
    perTool: v.optional(v.boolean("perTool must be true or false")),
    now: v.optional(v.function("now must be a function returning milliseconds")),
  },
  "is not an option of this plugin (max, windowMs, tools, perTool, now)",
);

/** A call counted against a budget. */
interface Slot {
  callId: string;
  time: number;
}

/** One budget: the calls it allowed within the window, and the attempts it refused (for "this was call N"). */
interface Bucket {
  allowed: Slot[];
  refused: number[];
}

/**
 * Allows at most `max` calls per tool per sliding `windowMs`, per session. A call takes a slot when this
 * plugin allows it; if another plugin then blocks the call (or an `ask` is refused), the slot is given
 * back, so calls that never ran do not use up the budget.
 */
export default definePlugin<RateLimitOptions>((options, api) => {
  const { max, windowMs, tools, perTool, now } = resolveOptions(options);
  const buckets = new Map<string, Bucket>();
  // Slots taken by calls whose outcome is not known yet, by call id: refunded on `tool:blocked`.
  const pending = new Map<string, { bucket: Bucket; slot: Slot }>();

  function bucketFor(sessionId: string, tool: string): Bucket {
    const key = JSON.stringify([sessionId, perTool ? tool : "*"]);
    let bucket = buckets.get(key);
    if (!bucket) buckets.set(key, (bucket = { allowed: [], refused: [] }));
    return bucket;
  }

  function prune(bucket: Bucket, time: number): void {
    const start = time - windowMs;
    while (bucket.allowed.length > 0 && bucket.allowed[0]!.time <= start) {
      const slot = bucket.allowed.shift()!;
      if (pending.get(slot.callId)?.slot === slot) pending.delete(slot.callId);
    }
    while (bucket.refused.length > 0 && bucket.refused[0]! <= start) bucket.refused.shift();
  }

  function refusal(call: ToolCall, bucket: Bucket, time: number): string {
    const attempt = bucket.allowed.length + bucket.refused.length;
    const retryInMs = bucket.allowed[0]!.time + windowMs - time;
    const times = `${max} ${max === 1 ? "time" : "times"} per ${formatDuration(windowMs)}`;
    const limit = perTool
      ? `"${call.name}" may be called ${times}; this was call ${attempt}.`
      : `tools may be called ${times} in total; "${call.name}" was call ${attempt}.`;
    return `rate limit: ${limit} Retry in ${formatRetry(retryInMs)}.`;
  }

  api.on("tool:blocked", ({ call }) => {
    const taken = pending.get(call.id);
    if (!taken) return;
    pending.delete(call.id);
    const index = taken.bucket.allowed.indexOf(taken.slot);
    if (index !== -1) taken.bucket.allowed.splice(index, 1);
  });
  api.on("tool:end", ({ call }) => pending.delete(call.id));

  return {
    name: pluginName,
    description: "At most N calls per tool per sliding time window",
    // Runs after the other policies: the slot it takes is refunded if one of them blocks the call.
    order: 100,
    hooks: {
      pre_tool_call(call, ctx) {
        if (tools && !tools.has(call.name)) return;
        const time = now();
        if (!Number.isFinite(time)) throw new Error(`${pluginName}: option "now" returned ${String(time)}, not a time in milliseconds`);
        const bucket = bucketFor(ctx.session.id, call.name);
        prune(bucket, time);
        if (bucket.allowed.length >= max) {
          bucket.refused.push(time);
          pending.delete(call.id); // this decision took no slot; never refund an older one with the same id
          return { action: "block", message: refusal(call, bucket, time) };
        }
        const slot = { callId: call.id, time };
        bucket.allowed.push(slot);
        pending.set(call.id, { bucket, slot });
      },
    },
  };
});

function resolveOptions(input: unknown) {
  const parsed = v.safeParse(OptionsSchema, input ?? {});
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const path = v.getDotPath(issue);
    throw new Error(`${pluginName}: ${path === null ? "options" : `option "${path}"`}: ${issue.message} (got ${issue.received})`);
  }
  const { max = 5, windowMs = 60_000, tools, perTool = true, now = Date.now } = parsed.output;
  return { max, windowMs, tools: tools && new Set(tools), perTool, now: now as () => number };
}
