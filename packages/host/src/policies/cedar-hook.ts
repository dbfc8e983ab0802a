import type { PreToolCallDecision, SessionInfo } from "@toolgate/plugin-sdk";
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { ToolgateError } from "../errors.js";
import { cedarPackage, importOptional, MissingPackageError } from "../optional-packages/import-optional.js";
import type { HookInput } from "./hook-input.js";
import type { CedarHookConfig } from "./policy-config.js";
import { createPolicyContext } from "./policy-context.js";

type CedarModule = typeof import("@toolgate/cedar");
type CedarPolicySet = import("@toolgate/cedar").CedarPolicySet;

/** Decides one call from its hook input: a block, an allow, or no opinion. */
export type CedarRunner = (input: HookInput, session: SessionInfo) => PreToolCallDecision | undefined;

export interface PreparedCedarHook {
  decide: CedarRunner;
  /** A digest of the policy and schema text, so that a record's policy digest changes when the file does. */
  digest: string;
}

/**
 * Loads `@toolgate/cedar`, reads the policy file (and the schema), parses and validates them, at host
 * load: a missing package, an unreadable file or a policy that does not parse or validate throws
 * `POLICY_HOOK_INVALID` naming the config key, the file and the line, so the host never starts with
 * a policy it cannot read (the same as a command hook whose program is missing).
 */
export async function prepareCedarHook(config: CedarHookConfig, where: string, baseDir: string): Promise<PreparedCedarHook> {
  const invalid = (problem: string) => new ToolgateError("POLICY_HOOK_INVALID", `${where}: ${problem}`);
  const cedar = await loadCedar(baseDir).catch((error: unknown) => {
    throw invalid(error instanceof MissingPackageError ? error.message : `${cedarPackage.name} failed to load: ${String(error)}`);
  });
  const policies = await readSource(config.policies, baseDir, "policies", invalid);
  const schema = config.schema === undefined ? undefined : await readSource(config.schema, baseDir, "schema", invalid);
  let set: CedarPolicySet;
  try {
    set = cedar.compileCedarPolicies({ policies, schema });
  } catch (error) {
    throw invalid(error instanceof Error ? error.message : String(error));
  }
  const digest = createHash("sha256")
    .update(policies.text)
    .update("\0")
    .update(schema?.text ?? "")
    .digest("hex")
    .slice(0, 16);
  return { decide: (input, session) => decisionOf(set.decide(createPolicyContext(input, session))), digest };
}

/**
 * Cedar's answer as a hook's: a determining forbid blocks, Allow allows, and Deny with no determining
 * policy (nothing matched: Cedar's default deny) is no opinion. A policy that errors on the call blocks
 * rather than being skipped as Cedar would, since a skipped forbid could let the call through.
 */
function decisionOf(verdict: ReturnType<CedarPolicySet["decide"]>): PreToolCallDecision | undefined {
  switch (verdict.effect) {
    case "forbid":
      return { action: "block", message: verdict.message };
    case "permit":
      return { action: "allow", reason: `permitted by Cedar policy ${verdict.policies.join(", ")}` };
    case "error":
      return { action: "block", message: verdict.message };
    case "none":
      return undefined;
  }
}

async function readSource(file: string, baseDir: string, key: string, invalid: (problem: string) => Error): Promise<{ text: string; file: string }> {
  try {
    return { text: await readFile(resolve(baseDir, file), "utf8"), file };
  } catch (error) {
    throw invalid(`${key} "${file}" cannot be read: ${(error as { code?: string }).code ?? String(error)}`);
  }
}

function loadCedar(baseDir: string): Promise<CedarModule> {
  return importOptional(cedarPackage, baseDir, () => import("@toolgate/cedar"));
}
