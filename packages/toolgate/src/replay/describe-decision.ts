import type { PolicySource } from "@toolgate/plugin-sdk";
import { escapeControl } from "@toolgate/host/internal";
import { describeSource } from "../policy-test/compare-verdict.js";

/** `kind:name`, the key a decider is compared and named by; empty when nobody decided. */
export function sourceKey(source: PolicySource | undefined): string {
  return source === undefined ? "" : `${source.kind}:${source.name}`;
}

/** `block by rule Bash(rm:*): no deletes here`, `allow`: the verdict, who gave it, its message; escaped for a terminal. */
export function describeDecision(decision: { verdict: string; source?: PolicySource; message?: string }): string {
  const by = decision.source === undefined ? "" : ` by ${describeSource(decision.source)}`;
  const message = decision.message === undefined ? "" : `: ${decision.message}`;
  return escapeControl(`${decision.verdict}${by}${message}`);
}
