import type { SessionInfo } from "@toolgate/plugin-sdk";
import type { DecisionRecorder } from "./decisions/decision-recorder.js";
import type { EventBus } from "./events.js";
import type { HookDeadlines } from "./invocation/hook-deadlines.js";
import type { PluginFailure } from "./gate/plugin-failure.js";
import type { HostLogger } from "./logger.js";
import type { DenialLog } from "./policies/denials.js";
import type { PermissionRules } from "./policies/permission-rules.js";
import type { PolicyProtection } from "./protection/policy-protection.js";
import type { PluginRegistry } from "./registry/registry.js";

/** What every part of a running host shares: one object, handed to the gate, execution and observers. */
export interface HostRuntime {
  readonly registry: PluginRegistry;
  readonly events: EventBus;
  /** Never throws: a throwing logger must not break the gate (see `guardLogger`). */
  readonly logger: HostLogger;
  readonly session: SessionInfo;
  /** Pending async hooks, their timeout, and the one timer behind them. */
  readonly deadlines: HookDeadlines;
  readonly onHookError: "block" | "allow";
  /** The `permissions` rules: checked before every plugin and again on the final arguments after a `modify`. */
  readonly rules: PermissionRules | undefined;
  /** `permissions.shadow`: rules checked after `rules`, recorded as shadow, never part of the verdict. */
  readonly shadowRules: PermissionRules | undefined;
  /** The built-in check that refuses changes to toolgate's own policy (`protectPolicy`); undefined when it is `"off"`. */
  readonly protection: PolicyProtection | undefined;
  /**
   * Set once after loading when a plugin failed and `onPluginError` is `"block"`: the gate then blocks
   * every call with it, before any hook runs.
   */
  pluginFailure: PluginFailure | undefined;
  /** One record per decided call, for `decision` listeners and the decisions log. */
  readonly recorder: DecisionRecorder;
  /** Recent blocked calls, for `host.denials()`. */
  readonly denials: DenialLog;
  /** Aborted by `host.close()`; tools receive it as `ctx.signal`. */
  readonly closeSignal: AbortSignal;
  /** Set by `host.close()`: nothing gated after it runs. A plain field, read on every call. */
  closed: boolean;
}

/** A logger whose methods never throw: a warning about a plugin must not turn into a host failure. */
export function guardLogger(logger: HostLogger): HostLogger {
  const guard =
    (write: HostLogger["warn"]): HostLogger["warn"] =>
    (message, ...details) => {
      try {
        write.call(logger, message, ...details);
      } catch {
        // Nowhere left to report it.
      }
    };
  return { debug: guard(logger.debug), info: guard(logger.info), warn: guard(logger.warn), error: guard(logger.error) };
}
