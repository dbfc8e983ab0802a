import type { PolicySource, ToolCall, Verdict } from "@toolgate/plugin-sdk";
import type { Host, ToolCallExplanation } from "@toolgate/host";
import { shadowOf } from "@toolgate/host/internal";
import { openHost, stderrLogger } from "../cli/open-host.js";
import { failedPlugins } from "../cli/plugin-report.js";
import { callOfCase } from "./fixture-call.js";
import type { ExpectedVerdict, ShadowExpectation } from "./fixture-schema.js";
import { mismatchesOf, verdictName, type WouldBe } from "./compare-verdict.js";
import type { LocatedCase } from "./read-fixtures.js";

/** One case's result: what `--json` prints per case. */
export interface CaseResult {
  where: string;
  name?: string;
  call: ToolCall;
  agent?: string;
  expected: { verdict: ExpectedVerdict; shadow?: ShadowExpectation; by?: string; message?: string };
  got: { verdict: ExpectedVerdict; source?: PolicySource; message?: string; args: Record<string, unknown>; shadow?: WouldBe };
  pass: boolean;
  mismatches: string[];
}

export interface FileRun {
  results: CaseResult[];
  failedPlugins: { plugin: string; error: string }[];
}

/**
 * Runs one file's cases, in order, through the project's policy as `toolgate explain` does: the host
 * loads the project as every surface does, decides each call through the one gate, and neither runs a
 * tool nor records a decision. What plugins write to the store (a budget's reservation, a rate limit's
 * slot) stays in this process (`storeWrites: "local"`): a later case in the same file sees it, as a
 * later call in a session would; the next file starts from the store as it is.
 */
export async function runFixtureFile(cwd: string, cases: readonly LocatedCase[]): Promise<FileRun> {
  const host = await openHost({ cwd, logger: stderrLogger, storeWrites: "local" });
  try {
    const results: CaseResult[] = [];
    for (const [index, fixtureCase] of cases.entries()) results.push(await runCase(host, fixtureCase, index));
    const failed = failedPlugins(host.plugins).map((record) => ({ plugin: record.name, error: record.error ?? "failed to load" }));
    return { results, failedPlugins: failed };
  } finally {
    await host.close();
  }
}

async function runCase(host: Host, fixtureCase: LocatedCase, index: number): Promise<CaseResult> {
  const call = callOfCase(fixtureCase, index);
  const sessionOption = fixtureCase.session === undefined ? {} : { session: { id: fixtureCase.session } };
  const explanation = await host.explainToolCall(call, sessionOption);
  const got = verdictName(explanation.verdict, call.args);
  const verdict = got === "modify" ? withRewriter(explanation) : explanation.verdict;
  const wouldBe = wouldBeOf(explanation.verdict);
  const mismatches = mismatchesOf({ verdict: fixtureCase.expect, ...pick(fixtureCase) }, verdict, got, wouldBe);
  return {
    where: fixtureCase.where,
    ...(fixtureCase.name === undefined ? {} : { name: fixtureCase.name }),
    call,
    ...(fixtureCase.agent === undefined ? {} : { agent: fixtureCase.agent }),
    expected: {
      verdict: fixtureCase.expect,
      ...(fixtureCase.shadow === undefined ? {} : { shadow: fixtureCase.shadow }),
      ...(fixtureCase.by === undefined ? {} : { by: fixtureCase.by }),
      ...(fixtureCase.message === undefined ? {} : { message: fixtureCase.message }),
    },
    got: {
      verdict: got,
      ...(verdict.source === undefined ? {} : { source: verdict.source }),
      ...(verdict.message === undefined ? {} : { message: verdict.message }),
      args: verdict.args,
      ...(fixtureCase.shadow === undefined ? {} : { shadow: wouldBe }),
    },
    pass: mismatches.length === 0,
    mismatches,
  };
}

/**
 * Who a `modify` comes from: the gate names no decider for an allow, so the last plugin whose rewrite
 * stands (later rewrites of the same key win) is the one a fixture's `by` is checked against.
 */
function withRewriter({ verdict, plugins }: ToolCallExplanation): Verdict {
  const rewriter = plugins.findLast((plugin) => plugin.outcome === "modify");
  return rewriter === undefined ? verdict : { ...verdict, source: { kind: "plugin", name: rewriter.plugin } };
}

/** The verdict with the shadow participants enforced: the strictest shadow answer where it differs, else the call's own. */
function wouldBeOf(verdict: Verdict): WouldBe {
  const shadow = shadowOf(verdict);
  if (shadow !== undefined) return { verdict: shadow.action, source: shadow.source };
  return verdict.source === undefined ? { verdict: verdict.action } : { verdict: verdict.action, source: verdict.source };
}

function pick({ shadow, by, messagePattern }: LocatedCase) {
  return {
    ...(shadow === undefined ? {} : { shadow }),
    ...(by === undefined ? {} : { by }),
    ...(messagePattern === undefined ? {} : { messagePattern }),
  };
}
