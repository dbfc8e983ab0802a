import type { SessionInfo } from "@toolgate/plugin-sdk";
import * as v from "valibot";
import { ToolgateError } from "../errors.js";
import type { SessionOptions } from "../options.js";
import { summarizeIssues } from "../schema-messages/summarize-issues.js";

const CallSessionSchema = v.looseObject(
  {
    id: v.optional(v.pipe(v.string("must be a string"), v.nonEmpty("must not be empty"))),
    user: v.optional(v.string("must be a string")),
  },
  "must be an object such as { id: string, user?: string }",
);

/**
 * The session one call belongs to. A host serving many agents (`toolgate serve`) is told each call's
 * session, so `ctx.session` and everything counted per session (budgets, rate limits, records) is that
 * agent's, as it is for the hook command, which runs one host per call. The given fields override the
 * host's own session, the way `createHost({ session })` overrides the config's.
 */
export function callSession(hostSession: SessionInfo, given: SessionOptions | undefined): SessionInfo {
  if (given === undefined) return hostSession;
  const parsed = v.safeParse(CallSessionSchema, given);
  if (!parsed.success) throw new ToolgateError("INVALID_CALL", `the call's options are invalid: ${summarizeIssues(parsed.issues, 3, "session")}`);
  return Object.freeze({ ...hostSession, ...parsed.output }) as SessionInfo;
}
