import { shadowVerdict, type ParticipantAction, type PolicySource, type Verdict } from "@toolgate/plugin-sdk";

/** The strictest answer a shadow participant gave in one run: the verdict it would have caused, and who. */
export interface ShadowAnswer {
  readonly action: Verdict["action"];
  readonly source: PolicySource;
}

/**
 * The verdict each decided call would have had with its shadow participants taking part, where that
 * differs from its verdict: the call's span reads it (`toolgate.shadow.verdict`). Keyed by the verdict
 * object, which the memo hands back for `skipPreToolCallHook`.
 */
const differing = new WeakMap<Verdict, ShadowAnswer>();

/** `current` or this answer, whichever would have made the verdict stricter (the first one on a tie). */
export function stricterShadow(current: ShadowAnswer | undefined, action: ParticipantAction, source: PolicySource): ShadowAnswer | undefined {
  const wouldBe = shadowVerdict(current?.action ?? "allow", action);
  return wouldBe === (current?.action ?? "allow") ? current : { action: wouldBe, source };
}

/** Notes, for the span, what `verdict` would have been had the shadow participants (`answer`) enforced. */
export function noteShadowVerdict(verdict: Verdict, answer: ShadowAnswer | undefined): void {
  if (answer === undefined) return;
  const wouldBe = shadowVerdict(verdict.action, answer.action);
  if (wouldBe !== verdict.action) differing.set(verdict, { action: wouldBe, source: answer.source });
}

/** What a shadow participant would have made of `verdict`, when it differs; else undefined. */
export function shadowOf(verdict: Verdict): ShadowAnswer | undefined {
  return differing.get(verdict);
}
