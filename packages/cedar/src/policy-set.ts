import { cedarWasm, type SchemaJson } from "./cedar-wasm.js";
import { type HeldPolicy, indexPolicies, type PolicyIndex, type PreparsedSet } from "./policy-index.js";
import type { PolicyContext } from "@toolgate/plugin-sdk";
import { takenByCedar, toCedarRequest } from "./request.js";
import { describeError, describeErrors, type CedarSource } from "./source-location.js";
import { CedarPolicyError } from "./errors.js";

export { CedarPolicyError };

/**
 * What the policies say about one call. `forbid`: a forbid policy matched (Cedar's decision is Deny and
 * that policy determines it). `permit`: Allow. `none`: no policy matched (Cedar's default Deny, which
 * toolgate reads as no opinion). `error`: a policy could not be evaluated on this call, or the request
 * itself was refused; the host blocks on it.
 */
export type CedarVerdict =
  | { readonly effect: "forbid"; readonly policy: string; readonly message: string }
  | { readonly effect: "permit"; readonly policies: readonly string[] }
  | { readonly effect: "none" }
  | { readonly effect: "error"; readonly message: string };

export interface CedarPolicySet {
  /** How many policies the file holds. */
  readonly size: number;
  decide(context: PolicyContext): CedarVerdict;
}

export interface CedarPolicyFiles {
  policies: CedarSource;
  /** Validates the policies against it at load: Cedar's schema syntax, or its JSON form when the file name ends in `.json`. */
  schema?: CedarSource | undefined;
}

let preparsedSets = 0;

/**
 * Parses the policy file (and the schema, and validates the policies against it), then keeps the
 * policy set parsed inside Cedar so that a decision does not parse it again. Throws a
 * `CedarPolicyError` naming the file and line of the first problem.
 */
export function compileCedarPolicies(files: CedarPolicyFiles): CedarPolicySet {
  const cedar = cedarWasm();
  const { policies } = files;
  const parsed = cedar.checkParsePolicySet({ staticPolicies: policies.text });
  if (parsed.type === "failure") throw new CedarPolicyError(`Cedar policies do not parse: ${describeErrors(policies, parsed.errors)}`);
  if (files.schema !== undefined) validateAgainst(files.schema, policies);
  const index = indexPolicies(policies, () => `toolgate-cedar-${++preparsedSets}`);
  return {
    size: index.size,
    decide: (context) => decide(index, context, policies),
  };
}

function validateAgainst(schemaSource: CedarSource, policies: CedarSource): void {
  const cedar = cedarWasm();
  const schema = readSchema(schemaSource);
  const checked = cedar.checkParseSchema(schema);
  if (checked.type === "failure") throw new CedarPolicyError(`the Cedar schema does not parse: ${describeErrors(schemaSource, checked.errors)}`);
  const answer = cedar.validate({ schema, policies: { staticPolicies: policies.text } });
  if (answer.type === "failure")
    throw new CedarPolicyError(`Cedar policies do not validate against ${schemaSource.file}: ${describeErrors(policies, answer.errors)}`);
  if (answer.validationErrors.length > 0) {
    const errors = answer.validationErrors.map((error) => describeError(policies, error.error));
    throw new CedarPolicyError(`Cedar policies do not validate against ${schemaSource.file}: ${errors.join("; ")}`);
  }
}

function readSchema(source: CedarSource): string | SchemaJson<string> {
  if (!source.file.endsWith(".json")) return source.text;
  try {
    return JSON.parse(source.text) as SchemaJson<string>;
  } catch (error) {
    throw new CedarPolicyError(`the Cedar schema ${source.file} is not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function decide(index: PolicyIndex, context: PolicyContext, source: CedarSource): CedarVerdict {
  const policies = index.policiesFor(context);
  if (policies.answer === "none") return { effect: "none" };
  if (policies.answer === "toolgate" && takenByCedar(toCedarRequest(context, policies.tool.reads))) return heldVerdict(index, policies.held, source);
  const set = policies.answer === "cedar" ? policies.set : policies.tool;
  return askCedar(index, set, context, source);
}

function askCedar(index: PolicyIndex, set: PreparsedSet, context: PolicyContext, source: CedarSource): CedarVerdict {
  const request = toCedarRequest(context, set.reads);
  const answer = cedarWasm().statefulIsAuthorized({ ...request, preparsedPolicySetId: set.id, entities: [] });
  if (answer.type === "failure") return { effect: "error", message: `Cedar refused the request: ${describeErrors(source, answer.errors)}` };
  const { decision, diagnostics } = answer.response;
  if (diagnostics.errors.length > 0) {
    const errors = diagnostics.errors.map(
      (failed) => `policy ${index.label(failed.policyId).name} at ${describeError(source, failed.error, index.label(failed.policyId).byteOffset)}`,
    );
    return { effect: "error", message: `a Cedar policy failed on this call: ${errors.join("; ")}` };
  }
  if (decision === "allow") return permitted(index, diagnostics.reason);
  return forbidden(index, diagnostics.reason, source);
}

/** Cedar's answer when every policy that could apply holds: a forbid among them decides, else the permits allow. */
function heldVerdict(index: PolicyIndex, held: readonly HeldPolicy[], source: CedarSource): CedarVerdict {
  const forbids = held.filter((policy) => policy.effect === "forbid");
  if (forbids.length > 0)
    return forbidden(
      index,
      forbids.map((policy) => policy.id),
      source,
    );
  return permitted(
    index,
    held.map((policy) => policy.id),
  );
}

function permitted(index: PolicyIndex, policyIds: readonly string[]): CedarVerdict {
  return { effect: "permit", policies: sortedByFile(policyIds).map((policy) => index.label(policy).name) };
}

function forbidden(index: PolicyIndex, policyIds: readonly string[], source: CedarSource): CedarVerdict {
  const determining = firstInFile(policyIds);
  if (determining === undefined) return { effect: "none" };
  const label = index.label(determining);
  return { effect: "forbid", policy: label.name, message: label.message ?? `forbidden by Cedar policy ${label.name} in ${source.file}` };
}

/** Cedar lists the determining policies in no fixed order; the first in the file speaks, so the message is stable. */
function firstInFile(policyIds: readonly string[]): string | undefined {
  return sortedByFile(policyIds)[0];
}

function sortedByFile(policyIds: readonly string[]): string[] {
  return [...policyIds].sort((a, b) => Number(a.slice("policy".length)) - Number(b.slice("policy".length)));
}
