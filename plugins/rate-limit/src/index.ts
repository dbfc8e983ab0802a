import { definePlugin, formatDuration, formatRetry, optionsError, storeFailure, type OnStoreError, type ToolCall } from "@toolgate/plugin-sdk";
import * as v from "valibot";

const pluginName = "rate-limit";
const storeFailureMessage = "rate limit: the limit cannot be checked right now (its store is unreachable), so the call is blocked. Retry later.";

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
  /** When the host's store cannot be reached: `"block"` the call (fail closed) or `"allow"` it uncounted. @default "block" */
  onStoreError?: OnStoreError;
}

const OptionsSchema = v.strictObject(
  {
    max: v.optional(v.pipe(v.number("max must be a number"), v.integer("max must be a whole number"), v.minValue(1, "max must be 1 or more"))),
    windowMs: v.optional(v.pipe(v.number("windowMs must be a number"), v.finite("windowMs must be finite"), v.gtValue(0, "windowMs must be greater than 0"))),
    tools: v.optional(
      v.pipe(
        v.array(v.string("each entry of tools must be a tool name (a string)"), "tools must be an array of tool names"),
        v.nonEmpty("tools must not be empty (leave it out to limit every tool)"),
      ),
    ),
    perTool: v.optional(v.boolean("perTool must be true or false")),
    now: v.optional(v.function("now must be a function returning milliseconds")),
    onStoreError: v.optional(v.picklist(["block", "allow"], 'onStoreError must be "block" or "allow"')),
  },
  "is not an option of this plugin (max, windowMs, tools, perTool, now, onStoreError)",
);

/**
 * Allows at most `max` calls per tool per sliding `windowMs`, per session, counted in `api.store`, so
 * hosts sharing a store (Redis, or the file store between hook processes) share one limit. A call
 * reserves its slot when this plugin allows it; the host releases the slot if another plugin then
 * blocks the call (or an `ask` is refused), so calls that never ran do not use up the budget.
 */
export default definePlugin<RateLimitOptions>((options, api) => {
  const { max, windowMs, tools, perTool, now, onStoreError } = resolveOptions(options);

  function refusal(call: ToolCall, attempt: number, retryInMs: number | undefined): string {
    const times = `${max} ${max === 1 ? "time" : "times"} per ${formatDuration(windowMs)}`;
    const limit = perTool
      ? `"${call.name}" may be called ${times}; this was call ${attempt}.`
      : `tools may be called ${times} in total; "${call.name}" was call ${attempt}.`;
    return `rate limit: ${limit} Retry in ${formatRetry(retryInMs ?? windowMs)}.`;
  }

  async function decide(call: ToolCall, sessionId: string, time: number) {
    const key = JSON.stringify([sessionId, perTool ? call.name : "*"]);
    // A call that ran and failed still reached the tool: it keeps its slot.
    const reservation = await api.store.reserve(key, 1, call.id, { limit: max, windowMs, now: time, onError: "commit" });
    if (reservation.ok) return undefined;
    const refused = await api.store.increment(`${key}:refused`, { windowMs, now: time });
    return { action: "block" as const, message: refusal(call, reservation.used + refused, reservation.retryInMs) };
  }

  return {
    name: pluginName,
    description: "At most N calls per tool per sliding time window",
    // Runs after the other policies: the slot it takes is released if one of them blocks the call.
    order: 100,
    hooks: {
      async pre_tool_call(call, ctx) {
        if (tools && !tools.has(call.name)) return;
        const time = now();
        if (!Number.isFinite(time)) throw new Error(`${pluginName}: option "now" returned ${String(time)}, not a time in milliseconds`);
        try {
          return await decide(call, ctx.session.id, time);
        } catch (error) {
          return storeFailure(error, onStoreError, api.log, storeFailureMessage);
        }
      },
    },
  };
});

function resolveOptions(input: unknown) {
  const parsed = v.safeParse(OptionsSchema, input ?? {});
  if (!parsed.success) {
    throw optionsError(pluginName, OptionsSchema, parsed.issues[0]);
  }
  const { max = 5, windowMs = 60_000, tools, perTool = true, now = Date.now, onStoreError = "block" } = parsed.output;
  return { max, windowMs, tools: tools && new Set(tools), perTool, now: now as () => number, onStoreError };
}
