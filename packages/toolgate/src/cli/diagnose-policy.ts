import type { Host, HostOptions } from "@toolgate/host";
import type { HostSettings } from "@toolgate/host/internal";

/** What `check` and `doctor` find beyond loading: a problem fails them, a warning does not. */
export interface PolicyDiagnosis {
  problems: string[];
  warnings: string[];
}

/** A hook that failed while the sample call was decided: the plugin and why. */
interface HookFailure {
  plugin: string;
  reason: string;
}

/** A harmless shell call, as a coding agent sends it: every shell policy and hook gets to answer it. */
const sampleCall = { id: "toolgate-sample-call", name: "Bash", args: { command: "ls" } };

/**
 * The project's host, opened to decide one sample call without side effects (its store writes stay in
 * memory, no decision record), with the hook failures that call meets collected in `failures`.
 */
export function sampleHostOptions(cwd: string, failures: HookFailure[]): HostOptions {
  return {
    cwd,
    logger: false,
    storeWrites: "local",
    decisions: { log: false },
    on: {
      "hook:error": ({ plugin, error }) => failures.push({ plugin, reason: error.message }),
      "hook:timeout": ({ plugin, timeoutMs }) => failures.push({ plugin, reason: `timed out after ${timeoutMs} ms` }),
      "hook:invalid": ({ plugin, reason }) => failures.push({ plugin, reason: `answered something that is not a decision: ${reason}` }),
    },
  };
}

/**
 * Whether calls will be decided by the policy or fail for a configuration reason: each optional package
 * the config needs resolves, the sample call is not denied by a hook that fails, and counted limits are
 * kept somewhere every hook process sees.
 */
export async function diagnosePolicy(host: Host, cwd: string, failures: HookFailure[]): Promise<PolicyDiagnosis> {
  const { resolveSettings } = await import("@toolgate/host/internal");
  const settings = await resolveSettings({ cwd, logger: false });
  const problems = await missingPackages(settings, host, cwd);
  const warnings: string[] = [];
  const verdict = await host.checkToolCall(sampleCall);
  const failure = failures.map(({ plugin, reason }) => `plugin "${plugin}" failed: ${reason}`).join("; ");
  if (failure !== "") {
    if (verdict.action === "block")
      problems.push(`a sample call (${describeSample()}) is denied because a policy cannot run, not because a policy says so: ${failure}`);
    else warnings.push(`a policy fails on a sample call (${describeSample()}) and is passed over (${passedOverBecause(host, failures)}): ${failure}`);
  }
  const counting = countingPlugins(host);
  if (settings.store.kind === "memory" && counting.length > 0) warnings.push(memoryStoreWarning(counting));
  return { problems, warnings };
}

/** Why a failing policy did not deny the sample call: it runs in shadow mode, or the host fails open. */
function passedOverBecause(host: Host, failures: readonly HookFailure[]): string {
  const shadow = new Set(host.plugins.filter((record) => record.shadow === true).map((record) => record.name));
  return failures.every(({ plugin }) => shadow.has(plugin)) ? "it runs in shadow mode" : 'onHookError is "allow"';
}

function describeSample(): string {
  return `${sampleCall.name} ${JSON.stringify(sampleCall.args)}`;
}

/** Each optional package the config needs, imported as the host would import it; the missing ones, with their install line. */
async function missingPackages(settings: HostSettings, host: Host, cwd: string): Promise<string[]> {
  const internal = await import("@toolgate/host/internal");
  const needed: [typeof internal.modelHooksPackage, () => Promise<unknown>][] = [];
  if (host.plugins.some((record) => record.policy?.kind === "model")) needed.push([internal.modelHooksPackage, () => import("@toolgate/model-hooks")]);
  if (host.plugins.some((record) => record.policy?.kind === "cel")) needed.push([internal.celPackage, () => import("@toolgate/cel")]);
  if (settings.store.kind === "redis") needed.push([internal.storeRedisPackage, () => import("@toolgate/store-redis")]);
  const problems: string[] = [];
  for (const [pkg, importOwn] of needed) {
    try {
      await internal.importOptional(pkg, cwd, importOwn);
    } catch (error) {
      problems.push(error instanceof internal.MissingPackageError ? error.message : `${pkg.name} does not load: ${internal.describeThrown(error)}`);
    }
  }
  return problems;
}

/** toolgate's own plugins that count calls in the store: budgets and rate limits. */
const countingPluginNames = new Set(["budget", "rate-limit"]);

function countingPlugins(host: Host): string[] {
  return host.plugins.filter((record) => record.status === "loaded" && countingPluginNames.has(record.name)).map((record) => record.name);
}

function memoryStoreWarning(plugins: string[]): string {
  const names = plugins.map((name) => `"${name}"`).join(" and ");
  return `${names} ${plugins.length === 1 ? "counts" : "count"} calls in the memory store, which lives as long as one process: under \`toolgate hook\` each tool call is its own process, so no limit is ever reached. Set store: "file" in toolgate.config (or a redis:// URL) to keep the counts`;
}
