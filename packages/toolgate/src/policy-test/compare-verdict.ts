import type { PolicySource, Verdict } from "@toolgate/plugin-sdk";
import type { ExpectedVerdict, ShadowExpectation } from "./fixture-schema.js";
import { matchesMessage, type MessagePattern } from "./message-pattern.js";

export interface Expectation {
  verdict: ExpectedVerdict;
  /** The verdict the call would get with its shadow participants enforced. */
  shadow?: ShadowExpectation;
  by?: string;
  messagePattern?: MessagePattern;
}

/** What the shadow participants would have made of the call: their verdict and who gave it, or the call's own. */
export interface WouldBe {
  verdict: ShadowExpectation;
  source?: PolicySource;
}

/** The verdict in a fixture's terms: an allow whose arguments a plugin rewrote is `modify`. */
export function verdictName(verdict: Verdict, originalArgs: Record<string, unknown>): ExpectedVerdict {
  if (verdict.action !== "allow") return verdict.action;
  return JSON.stringify(verdict.args) === JSON.stringify(originalArgs) ? "allow" : "modify";
}

/** `plugin block-dangerous-shell`, `rule Bash(rm:*)`; `nobody` when no participant had an opinion. */
export function describeSource(source: PolicySource | undefined): string {
  return source === undefined ? "nobody" : `${source.kind} ${source.name}`;
}

/** What differs between the expectation and the verdict, one line each; empty when the case passes. */
export function mismatchesOf(expected: Expectation, verdict: Verdict, got: ExpectedVerdict, wouldBe: WouldBe): string[] {
  const mismatches: string[] = [];
  if (got !== expected.verdict) mismatches.push(`expected ${expected.verdict}, got ${got}`);
  if (expected.shadow !== undefined && expected.shadow !== wouldBe.verdict)
    mismatches.push(`expected ${expected.shadow} with the shadow participants enforced, got ${wouldBe.verdict} by ${describeSource(wouldBe.source)}`);
  if (expected.by !== undefined && !decidedBy(verdict.source, expected.by))
    mismatches.push(`expected to be decided by ${expected.by}, decided by ${describeSource(verdict.source)}`);
  if (expected.messagePattern !== undefined && !matchesMessage(expected.messagePattern, verdict.message))
    mismatches.push(
      `expected a message matching ${describePattern(expected.messagePattern)}, got ${verdict.message === undefined ? "no message" : JSON.stringify(verdict.message)}`,
    );
  return mismatches;
}

/** `by` names the decider (`budget`) or its kind and name (`rule:Bash(rm:*)`, `plugin:budget`). */
function decidedBy(source: PolicySource | undefined, by: string): boolean {
  if (source === undefined) return false;
  return by === source.name || by === `${source.kind}:${source.name}`;
}

function describePattern(pattern: MessagePattern): string {
  return "regex" in pattern ? String(pattern.regex) : JSON.stringify(pattern.text);
}
