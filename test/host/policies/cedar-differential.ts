// Shared by the Cedar differential tests: a policy file through toolgate's host against Cedar's own
// isAuthorized on the whole request, call by call, the verdict and a failing policy's message alike.
import type * as CedarWasm from "@cedar-policy/cedar-wasm/nodejs";
import { createHost, type Verdict } from "@toolgate/host";
import { createRequire } from "node:module";
import { expect } from "vitest";
import { makeTempDir, writeFiles } from "../../helpers/cli-harness.js";

const cedar = createRequire(import.meta.url)("@cedar-policy/cedar-wasm/nodejs") as typeof CedarWasm;

export type CedarCall = [tool: string, args: Record<string, unknown>];
export type CedarSession = { id: string; user?: string; agent?: string };
type Outcome = "forbid" | "permit" | "none" | "error";
type Expected = { action: "block"; message: string[]; outcome: Outcome } | { action: "allow"; outcome: Outcome };

/** Cedar's own answer over the whole context, read the way toolgate promises to. */
function expected(answer: CedarWasm.AuthorizationAnswer): Expected {
  if (answer.type === "failure") throw new Error(`Cedar refused the request: ${JSON.stringify(answer.errors)}`);
  const { decision, diagnostics } = answer.response;
  const flat = (text: string) => text.replace(/\s*\n\s*/g, " ");
  if (diagnostics.errors.length > 0) {
    const message = diagnostics.errors.flatMap(({ error }) => [flat(error.message), ...(error.help ? [flat(error.help)] : [])]);
    return { action: "block", message, outcome: "error" };
  }
  if (decision === "allow") return { action: "allow", outcome: "permit" };
  return diagnostics.reason.length > 0 ? { action: "block", message: ["forbidden by Cedar policy"], outcome: "forbid" } : { action: "allow", outcome: "none" };
}

function check(verdict: Verdict, want: Expected, label: string): void {
  expect(verdict.action, `${label}: ${verdict.message}`).toBe(want.action);
  if (want.action === "block") for (const part of want.message) expect(verdict.message, label).toContain(part);
  else expect(verdict.source?.kind === "cedar", label).toBe(want.outcome === "permit");
}

/** Every call in every session through a host on `text`, against Cedar itself; the outcomes seen. */
export async function expectSameAsCedar(text: string, calls: readonly CedarCall[], sessions: readonly CedarSession[]): Promise<Set<Outcome>> {
  const dir = makeTempDir("repo", "cedar-differential-");
  writeFiles(dir, { "policies.cedar": text });
  // protectPolicy off: only Cedar speaks (the project guard would block `rm -rf /` on its own).
  const options = { cwd: dir, logger: false, pluginsDir: false, protectPolicy: "off" } as const;
  const host = await createHost({ ...options, hooks: { pre_tool_call: [{ type: "cedar", policies: "policies.cedar" }] } });
  const seen = new Set<Outcome>();
  try {
    for (const session of sessions) {
      for (const [index, [name, args]] of calls.entries()) {
        const callId = index === 0 && session.agent === undefined ? "c-forbidden" : `c${index}`;
        const verdict = await host.checkToolCall({ id: callId, name, args }, { session });
        const context: Record<string, unknown> = { tool: name, kind: "function", args: withoutNulls(args), callId, session: sessionOf(session), cwd: dir };
        if (session.agent !== undefined) context.agent = session.agent;
        const answer = cedar.isAuthorized({
          principal: { type: "Agent", id: session.agent ?? "unknown" },
          action: { type: "Action", id: name },
          resource: { type: "Tool", id: name },
          context: context as CedarWasm.Context,
          policies: { staticPolicies: text },
          entities: [],
        });
        const want = expected(answer);
        check(verdict, want, `${name} ${JSON.stringify(args).slice(0, 80)} in ${JSON.stringify(session)}`);
        seen.add(want.outcome);
      }
    }
  } finally {
    await host.close();
  }
  return seen;
}

function sessionOf(session: CedarSession): Record<string, string> {
  return session.user === undefined ? { id: session.id } : { id: session.id, user: session.user };
}

/** toolgate leaves a null argument out (Cedar has no null). */
function withoutNulls(args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).filter(([, value]) => value !== null));
}
