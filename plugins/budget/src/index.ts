import {
  definePlugin,
  formatDuration,
  formatRetry,
  optionsError,
  storeFailure,
  type HookContext,
  type OnStoreError,
  type ToolCall,
} from "@toolgate/plugin-sdk";
import * as v from "valibot";

const pluginName = "budget";
const storeFailureMessage = "budget: the budget cannot be checked right now (its store is unreachable), so the call is blocked. Retry later.";

/** What a budget is counted per: any mix of the session, the user and the tool. */
export type BudgetScope = "session" | "user" | "tool";

/** What one call costs: a number, a cost per tool name (`"*"` for the rest), or a function of the call. */
export type BudgetCost = number | Record<string, number> | ((call: ToolCall) => number);

export interface BudgetOptions {
  /** The budget: calls (with the default cost of 1) or cost units, within each `periodMs`. */
  limit: number;
  /** @default 1 per call */
  cost?: BudgetCost;
  /** @default ["session"] */
  per?: BudgetScope | BudgetScope[];
  /** The sliding period, in milliseconds. @default none: the budget never refills */
  periodMs?: number;
  /** Count only calls to these tools; others pass untouched. @default every tool */
  tools?: string[];
  /** What the budget counts in, for the message (`"USD"`, `"tokens"`). @default "calls" when cost is 1, else "units" */
  unit?: string;
  /**
   * A call that ran and failed: `"release"` its cost (it did not count) or `"commit"` it. A call whose
   * end is never reported (the tool crashed, the agent stopped) is treated the same way once
   * `pendingTtlMs` has passed. @default "release"
   */
  onError?: "release" | "commit";
  /**
   * How long a call's cost stays reserved while the call runs, waiting to hear how it ended (from this
   * process or, under `toolgate hook`, the PostToolUse one); then it settles as a failed call. Make it
   * longer than your longest tool call. @default 900000 (15 minutes)
   */
  pendingTtlMs?: number;
  /** When the host's store cannot be reached: `"block"` the call (fail closed) or `"allow"` it uncounted. @default "block" */
  onStoreError?: OnStoreError;
  /** The clock, in milliseconds (for tests). @default Date.now */
  now?: () => number;
}

const amount = (name: string) => v.pipe(v.number(`${name} must be a number`), v.finite(`${name} must be finite`), v.minValue(0, `${name} must be 0 or more`));
const scope = v.picklist(["session", "user", "tool"], 'per must be "session", "user", "tool" or an array of them');

const OptionsSchema = v.strictObject(
  {
    limit: v.pipe(amount("limit"), v.gtValue(0, "limit must be greater than 0")),
    cost: v.optional(
      v.union(
        [amount("cost"), v.record(v.string(), amount("each cost")), v.function()],
        "cost must be a number, an object of costs per tool, or a function of the call",
      ),
    ),
    per: v.optional(v.union([scope, v.pipe(v.array(scope), v.nonEmpty("per must not be empty"))], 'per must be "session", "user", "tool" or an array of them')),
    periodMs: v.optional(v.pipe(v.number("periodMs must be a number"), v.finite("periodMs must be finite"), v.gtValue(0, "periodMs must be greater than 0"))),
    tools: v.optional(
      v.pipe(
        v.array(v.string("each entry of tools must be a tool name (a string)"), "tools must be an array of tool names"),
        v.nonEmpty("tools must not be empty (leave it out to count every tool)"),
      ),
    ),
    unit: v.optional(v.pipe(v.string("unit must be a string"), v.nonEmpty("unit must not be empty"))),
    onError: v.optional(v.picklist(["release", "commit"], 'onError must be "release" or "commit"')),
    pendingTtlMs: v.optional(
      v.pipe(v.number("pendingTtlMs must be a number"), v.finite("pendingTtlMs must be finite"), v.gtValue(0, "pendingTtlMs must be greater than 0")),
    ),
    onStoreError: v.optional(v.picklist(["block", "allow"], 'onStoreError must be "block" or "allow"')),
    now: v.optional(v.function("now must be a function returning milliseconds")),
  },
  "is not an option of this plugin (limit, cost, per, periodMs, tools, unit, onError, pendingTtlMs, onStoreError, now)",
);

/**
 * Caps what an agent may spend: `limit` calls, or `limit` cost units, per session, user and/or tool,
 * per sliding `periodMs`. Each call reserves its cost in `api.store` under its call id: the host commits
 * it when the call ends ok and releases it when the call is blocked or fails, in whichever process
 * sees or reports that end, and a retried call (same id) is never counted twice, in one process or
 * across every host sharing the store.
 */
export default definePlugin<BudgetOptions>((options, api) => {
  const settings = resolveOptions(options);
  const { limit, periodMs, tools, onStoreError, now } = settings;

  async function decide(call: ToolCall, ctx: HookContext<BudgetOptions>, cost: number, time: number) {
    const key = budgetKey(call, ctx, settings.per);
    const reservation = await api.store.reserve(key, cost, call.id, {
      limit,
      windowMs: periodMs,
      now: time,
      onError: settings.onError,
      pendingTtlMs: settings.pendingTtlMs,
    });
    if (reservation.ok) return undefined;
    return { action: "block" as const, message: refusal(call, cost, reservation.used, reservation.retryInMs, settings) };
  }

  return {
    name: pluginName,
    description: "N calls or a cost per session, user or tool per period",
    // After the other policies, like rate-limit: a call they block is released, so it costs nothing.
    order: 100,
    hooks: {
      async pre_tool_call(call, ctx) {
        if (tools && !tools.has(call.name)) return;
        const cost = costOf(call, settings.cost);
        if (cost === 0) return;
        const time = now();
        if (!Number.isFinite(time)) throw new Error(`${pluginName}: option "now" returned ${String(time)}, not a time in milliseconds`);
        try {
          return await decide(call, ctx, cost, time);
        } catch (error) {
          return storeFailure(error, onStoreError, api.log, storeFailureMessage);
        }
      },
    },
  };
});

type Settings = ReturnType<typeof resolveOptions>;

function costOf(call: ToolCall, cost: BudgetCost): number {
  const value = typeof cost === "number" ? cost : typeof cost === "function" ? cost(call) : (cost[call.name] ?? cost["*"] ?? 1);
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0)
    throw new Error(`${pluginName}: option "cost": the cost of "${call.name}" must be a finite number, 0 or more (got ${String(value)})`);
  return value;
}

// Calls without a known user share one "(no user)" budget: still limited, never unlimited.
function budgetKey(call: ToolCall, ctx: HookContext<BudgetOptions>, per: readonly BudgetScope[]): string {
  const parts = per.map((scope) => (scope === "session" ? ctx.session.id : scope === "user" ? (ctx.session.user ?? "(no user)") : call.name));
  return JSON.stringify(parts);
}

function refusal(call: ToolCall, cost: number, used: number, retryInMs: number | undefined, settings: Settings): string {
  const scope = `per ${settings.per.join(" and ")}${settings.periodMs === undefined ? "" : ` per ${formatDuration(settings.periodMs)}`}`;
  const head = `budget: ${round(used)} of ${round(settings.limit)} ${settings.unit} used (${scope}); "${call.name}" costs ${round(cost)} more.`;
  if (retryInMs !== undefined) return `${head} Retry in ${formatRetry(retryInMs)}.`;
  return settings.periodMs === undefined ? `${head} This budget does not refill.` : `${head} This call costs more than the whole budget.`;
}

function round(value: number): string {
  return String(Math.round(value * 1e6) / 1e6);
}

function resolveOptions(input: unknown) {
  const parsed = v.safeParse(OptionsSchema, input ?? {});
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const path = v.getDotPath(issue);
    // A missing required key reaches us as the strict object's "not an option" issue.
    if (path === "limit" && issue.received === "undefined")
      throw new Error(`${pluginName}: option "limit" is required: the calls (or cost units) allowed per period`);
    throw optionsError(pluginName, OptionsSchema, issue);
  }
  const { limit, cost = 1, per = "session", periodMs, tools, unit, onError = "release", pendingTtlMs, onStoreError = "block", now = Date.now } = parsed.output;
  return {
    limit,
    cost: cost as BudgetCost,
    per: Array.isArray(per) ? [...new Set(per)] : [per],
    periodMs,
    tools: tools && new Set(tools),
    unit: unit ?? (cost === 1 ? "calls" : "units"),
    onError,
    pendingTtlMs,
    onStoreError,
    now: now as () => number,
  };
}
