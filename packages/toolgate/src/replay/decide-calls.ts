import type { PolicySource, Verdict } from "@toolgate/plugin-sdk";
import type { Host, HostLogger } from "@toolgate/host";
import { openHost, stderrLogger } from "../cli/open-host.js";
import { failedPlugins } from "../cli/plugin-report.js";
import type { CallLine } from "../cli/read-calls.js";
import { verdictName } from "../policy-test/compare-verdict.js";
import type { ExpectedVerdict } from "../policy-test/fixture-schema.js";

/** Where a policy lives: the project folder, and the config file when it is not the one found there. */
export interface PolicyLocation {
  cwd: string;
  configFile?: string;
  /** Where the host's warnings go. @default stderr, as every command's */
  logger?: HostLogger;
}

/** One call's verdict as `replay` and `diff` compare it. `verdict` is `modify` for an allow with rewritten arguments. */
export interface Decision {
  verdict: ExpectedVerdict;
  source?: PolicySource;
  message?: string;
}

/** A call of a file, located for the report (`decisions.jsonl:12`). */
export interface LocatedCall extends CallLine {
  file: string;
}

/**
 * Decides every call under the policy at `location`, in order, without consequences: through the gate as
 * `toolgate explain` asks it (no tool runs, no decision is recorded, `decisions.log` is off besides), with
 * a store of its own in memory, so budgets and rate limits count only the replayed calls and nothing is
 * written to the project's store. Each call keeps its recorded session. A plugin that fails to load
 * makes the policy undecidable: that is an error, not a verdict.
 */
export async function decideCalls(location: PolicyLocation, calls: readonly LocatedCall[]): Promise<Decision[]> {
  const host = await openHost({
    cwd: location.cwd,
    ...(location.configFile === undefined ? {} : { configFile: location.configFile }),
    logger: location.logger ?? stderrLogger,
    store: "memory",
    storeWrites: "local",
    decisions: { log: false },
  });
  try {
    assertLoaded(host);
    const decisions: Decision[] = [];
    for (const { call, recorded } of calls) {
      const explanation = await host.explainToolCall(call, recorded?.session === undefined ? {} : { session: { id: recorded.session } });
      decisions.push(decisionOf(explanation.verdict, call.args));
    }
    return decisions;
  } finally {
    await host.close();
  }
}

function decisionOf(verdict: Verdict, args: Record<string, unknown>): Decision {
  return {
    verdict: verdictName(verdict, args),
    ...(verdict.source === undefined ? {} : { source: { kind: verdict.source.kind, name: verdict.source.name } }),
    ...(verdict.message === undefined ? {} : { message: verdict.message }),
  };
}

function assertLoaded(host: Host): void {
  const failed = failedPlugins(host.plugins);
  if (failed.length === 0) return;
  // A load error names the file already.
  const reasons = failed.map((record) => `${record.name}: ${record.error ?? `${record.path ?? "its module"} failed to load`}`);
  throw new Error(`${failed.length === 1 ? "a plugin" : `${failed.length} plugins`} failed to load: ${reasons.join("; ")}`);
}
