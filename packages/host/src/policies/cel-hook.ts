import type { PreToolCallDecision, SessionInfo } from "@toolgate/plugin-sdk";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import * as v from "valibot";
import { ToolgateError } from "../errors.js";
import { celPackage, importOptional, MissingPackageError } from "../optional-packages/import-optional.js";
import type { ConfiguredHook } from "../settings.js";
import { PolicyHookError } from "./command-hook.js";
import type { HookInput } from "./hook-input.js";
import { type CelHookConfig, CelRuleSchema } from "./policy-config.js";
import { createPolicyContext } from "./policy-context.js";

type CelModule = typeof import("@toolgate/cel");
type CelRuleSpec = import("@toolgate/cel").CelRuleSpec;
type CelRules = import("@toolgate/cel").CelRules;

export interface CelHook {
  /** The hook's name in verdicts and records: the rules file, or how many rules it holds. */
  name: string;
  /** Synchronous once the rules compiled (always so after `ready`): no promise per call on the hot path. */
  run(input: HookInput, session: SessionInfo): PreToolCallDecision | undefined | Promise<PreToolCallDecision | undefined>;
  /** Settles once every rule compiled; rejects, naming the rule, when one does not. */
  ready: Promise<void>;
}

/**
 * A `type: "cel"` hook: its rules (inline, then the file's) are read now and compiled through
 * `@toolgate/cel` before the host is ready, so a rule that does not parse or type-check stops the load,
 * naming where it is written. Without the package the host still loads and every call the hook would
 * decide is blocked with the `npm install` line, as model hooks do.
 */
export function createCelHook(config: CelHookConfig, hook: ConfiguredHook): CelHook {
  if (hook.event !== "pre_tool_call")
    throw new ToolgateError("POLICY_HOOK_INVALID", `${hook.where}: a cel hook decides calls before they run, so it belongs under pre_tool_call`);
  const inline = inlineRules(config, hook.where);
  const compiled = (async () => compile([...inline, ...(config.file === undefined ? [] : await fileRules(config.file, hook))], hook.baseDir))();
  let settled: Compiled | undefined;
  // Registered before `ready`'s, so `settled` is set by the time the host is ready. A rejection is
  // reported through `ready`; this handler keeps it from also being an unhandled one.
  compiled.then(
    (result) => (settled = result),
    () => undefined,
  );
  return {
    name: config.file ?? `${inline.length} rule${inline.length === 1 ? "" : "s"}`,
    ready: compiled.then(() => undefined),
    run: (input, session) => (settled === undefined ? compiled.then((result) => decide(result, input, session)) : decide(settled, input, session)),
  };
}

type Compiled = { rules: CelRules } | { missing: PolicyHookError };

async function compile(specs: CelRuleSpec[], baseDir: string): Promise<Compiled> {
  let cel: CelModule;
  try {
    cel = await importOptional(celPackage, baseDir, () => import("@toolgate/cel"));
  } catch (error) {
    if (error instanceof MissingPackageError) return { missing: new PolicyHookError(error.message) };
    throw new ToolgateError("POLICY_HOOK_INVALID", `${celPackage.name} failed to load: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    return { rules: cel.CelRules.compile(specs) };
  } catch (error) {
    throw new ToolgateError("POLICY_HOOK_INVALID", error instanceof Error ? error.message : String(error));
  }
}

/**
 * The first rule that holds decides; none holding is no opinion. A rule that fails on this call blocks
 * it, naming the rule, whatever `onHookError` says: a rule that could not be read is not a pass.
 */
function decide(compiled: Compiled, input: HookInput, session: SessionInfo): PreToolCallDecision | undefined {
  if ("missing" in compiled) throw compiled.missing;
  let match: ReturnType<CelRules["firstMatch"]>;
  try {
    match = compiled.rules.firstMatch(createPolicyContext(input, session));
  } catch (error) {
    return { action: "block", message: `blocked: CEL rule ${error instanceof Error ? error.message : String(error)}` };
  }
  if (match === undefined) return undefined;
  const { rule } = match;
  if (rule.action === "allow") return rule.message === undefined ? { action: "allow" } : { action: "allow", reason: rule.message };
  return {
    action: rule.action,
    message: rule.message ?? `${rule.action === "block" ? "blocked" : "needs approval"} by CEL rule ${rule.where}: ${rule.expression}`,
  };
}

function inlineRules(config: CelHookConfig, where: string): CelRuleSpec[] {
  return (config.rules ?? []).map((rule, index) => ({ ...rule, where: `${where}.rules[${index}]` }));
}

/**
 * The rules of a YAML or JSON file (a list of rules), each named by the file, its line and its index.
 * `yaml` loads here, not with the host: the CLI's hook path starts without it.
 */
async function fileRules(file: string, hook: ConfiguredHook): Promise<CelRuleSpec[]> {
  const { LineCounter, parseDocument, isSeq } = await import("yaml");
  const path = resolve(hook.baseDir, file);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new ToolgateError("POLICY_HOOK_INVALID", `${hook.where}.file "${file}" cannot be read: ${error instanceof Error ? error.message : String(error)}`);
  }
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  const syntax = document.errors[0];
  if (syntax !== undefined) {
    const line = syntax.linePos?.[0].line;
    throw new ToolgateError("POLICY_HOOK_INVALID", `${file}${line === undefined ? "" : `:${line}`}: not YAML or JSON: ${syntax.message.split("\n", 1)[0]}`);
  }
  if (!isSeq(document.contents)) throw new ToolgateError("POLICY_HOOK_INVALID", `${file}: must hold a list of rules ({ expression, action, message? })`);
  const items = document.contents.items;
  const values = document.toJS() as unknown[];
  return values.map((value, index) => {
    const offset = (items[index] as { range?: [number, number, number] } | null)?.range?.[0];
    const at = offset === undefined ? file : `${file}:${lines.linePos(offset).line}`;
    const where = `${at}: rules[${index}]`;
    const parsed = v.safeParse(CelRuleSchema, value);
    if (!parsed.success) {
      const issue = parsed.issues[0];
      const key = issue.path?.map((step) => String(step.key)).join(".");
      throw new ToolgateError("POLICY_HOOK_INVALID", `${where}${key ? `.${key}` : ""} ${issue.message}`);
    }
    return { ...parsed.output, where };
  });
}
