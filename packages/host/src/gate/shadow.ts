import { shadowVerdict, type PolicySource, type PreToolCallDecision, type Verdict } from "@toolgate/plugin-sdk";

/** The strictest answer a shadow participant gave in one run: the verdict it would have caused, who, and why. */
export interface ShadowAnswer {
  readonly action: Verdict["action"];
  readonly source: PolicySource;
  readonly message?: string;
}

/**
 * The strictest shadow answer of each decided call that had one, by its verdict object (which the memo
 * hands back for `skipPreToolCallHook`, and which an answer through `onAsk` passes on): the call's span
 * reads what it would have changed (`toolgate.shadow.verdict`).
 */
const answers = new WeakMap<Verdict, ShadowAnswer>();

/** `current` or this answer, whichever would have made the verdict stricter (the first one on a tie). */
export function stricterShadow(current: ShadowAnswer | undefined, decision: PreToolCallDecision, source: PolicySource): ShadowAnswer | undefined {
  const wouldBe = shadowVerdict(current?.action ?? "allow", decision.action);
  if (wouldBe === (current?.action ?? "allow")) return current;
  return "message" in decision ? { action: wouldBe, source, message: decision.message } : { action: wouldBe, source };
}

/** Keeps the run's strictest shadow answer with the verdict it concluded. */
export function noteShadow(verdict: Verdict, answer: ShadowAnswer | undefined): void {
  if (answer !== undefined) answers.set(verdict, answer);
}

/** An `ask` settled through `onAsk` becomes a new verdict: the shadow answer goes with it. */
export function passShadowOn(from: Verdict, to: Verdict): Verdict {
  const answer = answers.get(from);
  if (answer !== undefined) answers.set(to, answer);
  return to;
}

/** What a shadow participant would have made of `verdict`, where that differs from it; else undefined. */
export function shadowOf(verdict: Verdict): ShadowAnswer | undefined {
  const answer = answers.get(verdict);
  if (answer === undefined) return undefined;
  const wouldBe = shadowVerdict(verdict.action, answer.action);
  return wouldBe === verdict.action ? undefined : { ...answer, action: wouldBe };
}
