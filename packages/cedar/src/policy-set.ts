import { cedarWasm, type SchemaJson } from "./cedar-wasm.js";
import { toCedarRequest, type CedarCallContext } from "./request.js";
import { describeError, describeErrors, type CedarSource } from "./source-location.js";

/** A policy or schema file that does not parse or validate: the message names the file and line. */
export class CedarPolicyError extends Error {
  override name = "CedarPolicyError";
}

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
  decide(context: CedarCallContext): CedarVerdict;
}

export interface CedarPolicyFiles {
  policies: CedarSource;
  /** Validates the policies against it at load: Cedar's schema syntax, or its JSON form when the file name ends in `.json`. */
  schema?: CedarSource | undefined;
}

interface PolicyLabel {
  name: string;
  message: string | undefined;
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
  const labels = labelPolicies(policies.text);
  const id = `toolgate-cedar-${++preparsedSets}`;
  const preparsed = cedar.preparsePolicySet(id, { staticPolicies: policies.text });
  if (preparsed.type === "failure") throw new CedarPolicyError(`Cedar policies do not parse: ${describeErrors(policies, preparsed.errors)}`);
  return {
    size: labels.size,
    decide: (context) => decide(id, context, labels, policies),
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

/**
 * Cedar names the policies of a file `policy0`, `policy1`, … in file order; `@id("…")` and
 * `@message("…")` annotations name them for people. Cedar hands the policies back in the order of its
 * own map (`policy10` before `policy2`), so each is put back in place by where its text is in the file.
 */
function labelPolicies(text: string): Map<string, PolicyLabel> {
  const cedar = cedarWasm();
  const parts = cedar.policySetTextToParts(text);
  const labels = new Map<string, PolicyLabel>();
  if (parts.type === "failure") return labels;
  const placed = parts.policies.map((policy) => ({ policy, offset: text.indexOf(policy) }));
  const inFileOrder = placed.every((part) => part.offset >= 0)
    ? placed.sort((a, b) => a.offset - b.offset).map((part) => part.policy)
    : zipWithSortedIds(parts.policies);
  inFileOrder.forEach((policy, index) => {
    const json = cedar.policyToJson(policy);
    const annotations = json.type === "success" ? (json.json.annotations ?? {}) : {};
    labels.set(`policy${index}`, { name: annotations.id ?? `policy${index}`, message: annotations.message });
  });
  return labels;
}

/** When a policy's text was reprinted: Cedar's map order is its ids sorted as strings. */
function zipWithSortedIds(policies: readonly string[]): string[] {
  const ids = policies.map((_, index) => `policy${index}`).sort();
  const byNumber: string[] = [];
  ids.forEach((id, position) => {
    byNumber[Number(id.slice("policy".length))] = policies[position]!;
  });
  return byNumber;
}

function decide(id: string, context: CedarCallContext, labels: ReadonlyMap<string, PolicyLabel>, source: CedarSource): CedarVerdict {
  const request = toCedarRequest(context);
  const answer = cedarWasm().statefulIsAuthorized({ ...request, preparsedPolicySetId: id, entities: [] });
  if (answer.type === "failure") return { effect: "error", message: `Cedar refused the request: ${describeErrors(source, answer.errors)}` };
  const { decision, diagnostics } = answer.response;
  if (diagnostics.errors.length > 0) {
    const errors = diagnostics.errors.map((failed) => `policy ${labelOf(labels, failed.policyId).name} at ${describeError(source, failed.error)}`);
    return { effect: "error", message: `a Cedar policy failed on this call: ${errors.join("; ")}` };
  }
  if (decision === "allow") return { effect: "permit", policies: sortedByFile(diagnostics.reason).map((policy) => labelOf(labels, policy).name) };
  const determining = firstInFile(diagnostics.reason);
  if (determining === undefined) return { effect: "none" };
  const label = labelOf(labels, determining);
  return { effect: "forbid", policy: label.name, message: label.message ?? `forbidden by Cedar policy ${label.name} in ${source.file}` };
}

/** Cedar lists the determining policies in no fixed order; the first in the file speaks, so the message is stable. */
function firstInFile(policyIds: readonly string[]): string | undefined {
  return sortedByFile(policyIds)[0];
}

function sortedByFile(policyIds: readonly string[]): string[] {
  return [...policyIds].sort((a, b) => Number(a.slice("policy".length)) - Number(b.slice("policy".length)));
}

function labelOf(labels: ReadonlyMap<string, PolicyLabel>, policyId: string): PolicyLabel {
  return labels.get(policyId) ?? { name: policyId, message: undefined };
}
