import type { PolicySource, PreToolCallDecision, ToolArgs } from "@toolgate/plugin-sdk";
import type { PluginExplanation } from "./explain.js";
import type { RunListener } from "./policy-run.js";

/** What each participant said, as `explainToolCall` shows it: listens to one quiet run. */
export class ExplainTrace implements RunListener {
  readonly quiet = true;
  readonly plugins: PluginExplanation[] = [];

  deciding(): void {}

  none(plugin: string, _source: PolicySource, _ms: number, shadow: boolean): void {
    this.#push({ plugin, outcome: "none" }, shadow);
  }

  decision(plugin: string, _source: PolicySource, decision: PreToolCallDecision, args: ToolArgs, _ms: number, shadow: boolean): void {
    if (decision.action === "modify") this.#push({ plugin, outcome: "modify", args }, shadow);
    else {
      const message = decision.action === "allow" ? decision.reason : decision.message;
      this.#push(message === undefined ? { plugin, outcome: decision.action } : { plugin, outcome: decision.action, message }, shadow);
    }
  }

  failure(plugin: string, _source: PolicySource, message: string, _timedOut: boolean, _ms: number, shadow: boolean): void {
    this.#push({ plugin, outcome: "error", message }, shadow);
  }

  invalid(plugin: string, _source: PolicySource, reason: string, _ms: number, shadow: boolean): void {
    this.#push({ plugin, outcome: "invalid", message: reason }, shadow);
  }

  #push(explanation: PluginExplanation, shadow: boolean): void {
    if (shadow) explanation.shadow = true;
    this.plugins.push(explanation);
  }
}
