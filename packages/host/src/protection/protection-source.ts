import type { PolicySource } from "@toolgate/plugin-sdk";

/** The participant name the protection's decisions carry as `Verdict.plugin`. */
export const protectionParticipant = "protect-policy";

/** Who decided, in verdicts and records: a built-in rule, named after its setting. */
export const protectionSource: PolicySource = Object.freeze({ kind: "rule", name: "protectPolicy" });

export function isProtectionSource(source: PolicySource): boolean {
  return source.kind === protectionSource.kind && source.name === protectionSource.name;
}
