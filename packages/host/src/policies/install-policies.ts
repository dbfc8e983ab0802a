import type { PluginRecord, PolicyKind, PolicySource, SessionInfo, ToolCall, ToolResult } from "@toolgate/plugin-sdk";
import { resolve } from "node:path";
import { ToolgateError } from "../errors.js";
import type { EventBus } from "../events.js";
import { HookDeadlines } from "../invocation/hook-deadlines.js";
import type { HookContext } from "@toolgate/plugin-sdk";
import { createPluginLogger, type HostLogger } from "../logger.js";
import type { PluginRegistry } from "../registry/registry.js";
import type { ConfiguredHook, HostSettings } from "../settings.js";
import { prepareCedarHook } from "./cedar-hook.js";
import { createCelHook } from "./cel-hook.js";
import { commandProblem, runCommandHook } from "./command-hook.js";
import { createHookInput, type HookInput } from "./hook-input.js";
import { runHttpHook } from "./http-hook.js";
import { compileMatcher } from "./matcher.js";
import { runModelHook } from "./model-hook.js";
import { PermissionRules, rulesParticipant, type PermissionsConfig } from "./permission-rules.js";

export interface PolicyDependencies {
  registry: PluginRegistry;
  events: EventBus;
  logger: HostLogger;
  session: SessionInfo;
  closeSignal: AbortSignal;
}

export interface InstalledPolicies {
  /** One record per configured hook, and one each for the rules and the shadow rules: `toolgate list` shows them like plugins. */
  records: PluginRecord[];
  rules: PermissionRules | undefined;
  shadowRules: PermissionRules | undefined;
}

// Configured hooks run before every plugin (the operator's policy first), in the order they are written.
const firstOrder = -1e15;

/** A hook's answer (a CEL hook's comes back synchronously); `session` is the call's own, which policy languages read. */
type Runner = (input: HookInput, signal: AbortSignal, session: SessionInfo) => unknown;

/**
 * Turns `hooks` and `permissions` into gate participants: each hook becomes a registered plugin with its
 * own `source` and its own timeout, so it runs through the same gate as plugins (aggregation, events,
 * exactly-once, fail closed). A command whose program is missing or not executable, a Cedar policy
 * that does not parse or validate, or a CEL rule that does not compile, rejects here, at load.
 */
export async function installPolicies(settings: HostSettings, deps: PolicyDependencies): Promise<InstalledPolicies> {
  const deadlinesByMs = new Map<number, HookDeadlines>();
  deps.closeSignal.addEventListener("abort", () => {
    for (const deadlines of deadlinesByMs.values()) deadlines.abortAll("host closed");
  });
  const deadlinesFor = (timeoutMs: number) => {
    const known = deadlinesByMs.get(timeoutMs);
    if (known) return known;
    const deadlines = new HookDeadlines(timeoutMs);
    deadlinesByMs.set(timeoutMs, deadlines);
    return deadlines;
  };
  const described = await Promise.all(settings.policyHooks.map((hook) => describeHook(hook)));
  const records = settings.policyHooks.map((hook, index) => {
    const timeoutMs = hook.config.timeout === undefined ? settings.hookTimeoutMs : Math.round(hook.config.timeout * 1000);
    return installHook(hook, described[index]!, firstOrder + index, deadlinesFor(timeoutMs), settings.cwd, deps);
  });
  const rules = installRules(settings, settings.permissions, false, deps);
  const shadowRules = installRules(settings, settings.shadowPermissions, true, deps);
  if (rules !== undefined) records.push(rules.record);
  if (shadowRules !== undefined) records.push(shadowRules.record);
  return { records, rules: rules?.rules, shadowRules: shadowRules?.rules };
}

function installRules(
  settings: HostSettings,
  config: PermissionsConfig,
  shadow: boolean,
  deps: PolicyDependencies,
): { rules: PermissionRules; record: PluginRecord } | undefined {
  const rules = new PermissionRules(config, { cwd: settings.cwd });
  if (rules.size === 0) return undefined;
  const count = `${rules.size} ${shadow ? "shadow " : ""}rule${rules.size === 1 ? "" : "s"}`;
  const record: PluginRecord = {
    name: shadow ? `${rulesParticipant} (shadow)` : rulesParticipant,
    source: "config",
    status: "loaded",
    warnings: [],
    policy: { kind: "rule", name: count },
  };
  if (settings.configPath !== undefined) record.path = settings.configPath;
  if (shadow) record.shadow = true;
  deps.events.emit("plugin:loaded", { plugin: record });
  return { rules, record };
}

interface DescribedHook {
  source: PolicySource;
  runner: Runner;
  path?: string;
  /** Shown to the policy digest: what the hook decides by beyond its config (a Cedar file's text). */
  options?: Record<string, unknown>;
}

function installHook(
  hook: ConfiguredHook,
  described: DescribedHook,
  order: number,
  deadlines: HookDeadlines,
  cwd: string,
  deps: PolicyDependencies,
): PluginRecord {
  const { source, runner, path, options = {} } = described;
  const name = uniqueName(`${source.kind}:${source.name}`, deps.registry);
  const matches = compileMatcher(hook.config.matcher);
  const fn =
    hook.event === "pre_tool_call"
      ? (call: ToolCall, ctx: HookContext) =>
          matches(call.name) ? runner(createHookInput("pre_tool_call", call, deps.session, cwd), ctx.signal, ctx.session) : undefined
      : (call: ToolCall, result: ToolResult, ctx: HookContext) =>
          matches(call.name)
            ? Promise.resolve(runner(createHookInput("post_tool_call", call, deps.session, cwd, result), ctx.signal, ctx.session)).then(() => undefined)
            : undefined;
  const record: PluginRecord = { name, source: "config", status: "loaded", warnings: [], policy: source };
  if (path !== undefined) record.path = path;
  if (hook.config.shadow === true) record.shadow = true;
  const plugin = {
    name,
    version: undefined,
    description: `${hook.event} ${source.kind} hook (${hook.where})`,
    order,
    hooks: [{ hook: hook.event, fn: fn as (...args: unknown[]) => unknown, thisArg: {} }],
    tools: {},
    explain: undefined,
  };
  const log = createPluginLogger(deps.logger, name);
  const shadow = hook.config.shadow === true;
  const rejected = deps.registry.add({ plugin, options, record, log, source, deadlines, shadow });
  if (rejected) throw rejected;
  deps.events.emit("plugin:loaded", { plugin: record });
  return record;
}

async function describeHook(hook: ConfiguredHook): Promise<DescribedHook> {
  const { config } = hook;
  const source = (kind: PolicyKind, name: string): PolicySource => Object.freeze({ kind, name });
  if (config.type === "http") return { source: source("http", config.url), runner: (input, signal) => runHttpHook(config, input, signal) };
  if (config.type === "cedar") {
    if (hook.event !== "pre_tool_call")
      throw new ToolgateError("POLICY_HOOK_INVALID", `${hook.where}: a cedar hook decides calls, so it belongs under pre_tool_call`);
    const { decide, digest } = await prepareCedarHook(config, hook.where, hook.baseDir);
    const runner: Runner = async (input, _signal, session) => decide(input, session);
    return { source: source("cedar", config.policies), runner, path: resolve(hook.baseDir, config.policies), options: { digest } };
  }
  if (config.type === "model") return { source: source("model", config.model), runner: (input, signal) => runModelHook(config, input, hook.baseDir, signal) };
  if (config.type === "cel") {
    const cel = createCelHook(config, hook);
    await cel.ready;
    const path = config.file === undefined ? undefined : resolve(hook.baseDir, config.file);
    const described = {
      source: source("cel", cel.name),
      runner: (input: HookInput, _signal: AbortSignal, session: SessionInfo) => cel.run(input, session),
    };
    return path === undefined ? described : { ...described, path };
  }
  const { command } = config;
  const problem = commandProblem(command, hook.baseDir);
  if (problem !== undefined) throw new ToolgateError("POLICY_HOOK_INVALID", `${hook.where}.command "${command}" cannot run: ${problem}`);
  const label = JSON.stringify(command);
  const first = command.trim().split(/\s/, 1)[0] ?? "";
  const runner: Runner = (input, signal) => runCommandHook(command, hook.baseDir, label, input, signal);
  return first.includes("/")
    ? { source: source("command", command), runner, path: resolve(hook.baseDir, first) }
    : { source: source("command", command), runner };
}

function uniqueName(base: string, registry: PluginRegistry): string {
  const taken = new Set(registry.plugins.map((plugin) => plugin.plugin.name));
  if (!taken.has(base)) return base;
  let index = 2;
  while (taken.has(`${base} (${index})`)) index++;
  return `${base} (${index})`;
}
