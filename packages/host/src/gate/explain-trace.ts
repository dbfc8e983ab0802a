import type { PolicySource, PreToolCallDecision, ToolArgs } from "@toolgate/plugin-sdk";
import type { PluginExplanation } from "./explain.js";
import type { RunListener } from "./policy-run.js";

/** What each participant said, as `explainToolCall` shows it: listens to one quiet run. */
export class ExplainTrace implements RunListener {
  readonly quiet = true;
  readonly plugins: PluginExplanation[] = [];

  deciding(): void {}

  none(plugin: string): void {
    this.plugins.push({ plugin, outcome: "none" });
  }

  decision(plugin: string, _source: PolicySource, decision: PreToolCallDecision, args: ToolArgs): void {
    if (decision.action === "modify") this.plugins.push({ plugin, outcome: "modify", args });
    else {
      const message = decision.action === "allow" ? decision.reason : decision.message;
      this.plugins.push(message === undefined ? { plugin, outcome: decision.action } : { plugin, outcome: decision.action, message });
    }
  }

  failure(plugin: string, _source: PolicySource, message: string): void {
    this.plugins.push({ plugin, outcome: "error", message });
  }

  invalid(plugin: string, _source: PolicySource, reason: string): void {
    this.plugins.push({ plugin, outcome: "invalid", message: reason });
  }
}
