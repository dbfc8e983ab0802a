import type { PolicySource, Verdict } from "@toolgate/plugin-sdk";
import { shadowOf } from "@toolgate/host/internal";

/** What a shadow participant would have made of the call: it took no part in `verdict`. */
export interface ShadowOpinion {
  verdict: Verdict["action"];
  source: PolicySource;
  message?: string;
}

/** `serve`'s answer to `POST /v1/check`. */
export interface CheckAnswer {
  verdict: Verdict;
  /** Only when a shadow participant would have decided otherwise (the strictest such answer). */
  shadow?: ShadowOpinion;
}

/** The verdict, and beside it what the shadow policy would have changed, so a caller can watch a rule before it enforces. */
export function checkAnswer(verdict: Verdict): CheckAnswer {
  const shadow = shadowOf(verdict);
  if (shadow === undefined) return { verdict };
  const { action, source, message } = shadow;
  return { verdict, shadow: { verdict: action, source: { kind: source.kind, name: source.name }, ...(message === undefined ? {} : { message }) } };
}
