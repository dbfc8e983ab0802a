import { cedarWasm, type PolicyJson } from "./cedar-wasm.js";
import type { PolicyContext } from "@toolgate/plugin-sdk";
import { contextReads, readsEverything, type ContextReads } from "./context-reads.js";
import { contextReader, type Guard, guardOf, judged } from "./policy-guards.js";
import { CedarPolicyError } from "./errors.js";
import { describeErrors, type CedarSource } from "./source-location.js";

/** How people know a policy: its `@id("…")` (else Cedar's `policyN`), its `@message("…")`, and where it starts in the file. */
export interface PolicyLabel {
  name: string;
  message: string | undefined;
  /** In UTF-8 bytes: Cedar locates an error within the policy's own text. */
  byteOffset: number;
}

interface FilePolicy {
  /** Cedar's id for it in the whole file: `policy0`, `policy1`, … in file order. */
  id: string;
  text: string;
  label: PolicyLabel;
  /** The tools its action scope names, or "all" (`action`, a slot, or a scope toolgate does not read). */
  actions: readonly string[] | "all";
  /** Cedar's JSON form of it, undefined when Cedar could not print it. */
  json: PolicyJson | undefined;
  /** The tests its condition starts with that toolgate answers itself (see policy-guards.ts). */
  guard: Guard | undefined;
  /**
   * Its scope holds for every call it is asked about: principal and resource unconstrained, the action
   * unconstrained or a list of tools (requests carry no entities, so `in` is only equality).
   */
  scopeAlwaysHolds: boolean;
}

/** A policy that holds on the call, known without Cedar: its id in the file and its effect. */
export interface HeldPolicy {
  readonly id: string;
  readonly effect: "permit" | "forbid";
}

/**
 * Who answers for a call. `cedar`: the preparsed set to ask. `toolgate`: every policy that could
 * apply is one toolgate judges whole and holds (`held`), so Cedar's answer is known without asking
 * it, provided the request is one Cedar takes (`reads`: what the tool's policies read of the
 * context, to check the request as Cedar would get it). `none`: no policy can apply.
 */
export type CallPolicies =
  | { readonly answer: "cedar"; readonly set: PreparsedSet }
  | { readonly answer: "toolgate"; readonly held: readonly HeldPolicy[]; readonly tool: PreparsedSet }
  | { readonly answer: "none" };

/** A preparsed set: its id inside Cedar, its policies and what they read of the context. */
export interface PreparsedSet {
  readonly id: string;
  readonly reads: ContextReads;
  readonly members: readonly FilePolicy[];
}

/** How many narrowed sets an index keeps parsed inside Cedar (which cannot drop one); past it a call is asked of its tool's whole set. */
const maxNarrowedSets = 256;

export interface PolicyIndex {
  readonly size: number;
  /** Who answers for the call: Cedar with the policies that could apply, toolgate itself, or nobody. */
  policiesFor(context: PolicyContext): CallPolicies;
  label(policyId: string): PolicyLabel;
}

/**
 * Splits the file's policies by the tools their action scope names and keeps one preparsed set per
 * tool (its own policies and those for every action), plus one for the other tools: Cedar checks
 * every policy's scope on every request (about a microsecond each, over a fixed cost of tens), so a
 * call is decided among the policies that can apply to it. The policies keep the ids they have in the
 * whole file, so the answer reads the same as the whole file's. When a policy's text cannot be found
 * as written (Cedar reprinted it), the file is one set, as written.
 */
export function indexPolicies(source: CedarSource, nextSetId: () => string): PolicyIndex {
  const cedar = cedarWasm();
  const { text } = source;
  const policies = filePolicies(text);
  const labels = new Map((policies ?? []).map((policy) => [policy.id, policy.label]));
  const preparse = (staticPolicies: string | Record<string, string>): string => {
    const id = nextSetId();
    const answer = cedar.preparsePolicySet(id, { staticPolicies });
    if (answer.type === "failure") throw new CedarPolicyError(`Cedar policies do not parse: ${describeErrors(source, answer.errors)}`);
    return id;
  };
  const label = (policyId: string) => labels.get(policyId) ?? { name: policyId, message: undefined, byteOffset: 0 };
  if (policies === undefined) {
    const whole = { id: preparse(text), reads: readsEverything, members: [] };
    const parts = cedar.policySetTextToParts(text);
    return { size: parts.type === "success" ? parts.policies.length : 0, policiesFor: () => ({ answer: "cedar", set: whole }), label };
  }
  const forAll = policies.filter((policy) => policy.actions === "all");
  const setOf = (chosen: readonly FilePolicy[]): PreparsedSet | undefined =>
    chosen.length === 0
      ? undefined
      : { id: preparse(Object.fromEntries(chosen.map((policy) => [policy.id, policy.text]))), reads: readsOf(chosen), members: chosen };
  const tools = new Set(policies.flatMap((policy) => (policy.actions === "all" ? [] : policy.actions)));
  const byTool = new Map<string, PreparsedSet | undefined>();
  for (const tool of tools) byTool.set(tool, setOf(policies.filter((policy) => policy.actions === "all" || policy.actions.includes(tool))));
  const others = setOf(forAll);
  const narrow = narrower(setOf);
  return { size: policies.length, policiesFor: (context) => narrow(byTool.has(context.tool) ? byTool.get(context.tool) : others, context), label };
}

/**
 * The tool's set less the policies the call rules out before Cedar is asked (a leading test of their
 * `when` is false: see policy-guards.ts), so a call pays only for the policies that could decide it.
 * When every policy left is one toolgate judges whole and holds on the call, Cedar's answer is known
 * (every one of them is satisfied, none can fail) and Cedar is not asked. Each combination is parsed
 * into Cedar once, on the first call that needs it.
 */
function narrower(setOf: (chosen: readonly FilePolicy[]) => PreparsedSet | undefined) {
  const narrowed = new Map<string, PreparsedSet>();
  const preparsed = (set: PreparsedSet, kept: readonly FilePolicy[]): PreparsedSet => {
    if (kept.length === set.members.length) return set;
    const key = kept.map((policy) => policy.id).join(" ");
    const known = narrowed.get(key);
    if (known !== undefined) return known;
    if (narrowed.size >= maxNarrowedSets) return set;
    const made = setOf(kept)!;
    narrowed.set(key, made);
    return made;
  };
  return (set: PreparsedSet | undefined, context: PolicyContext): CallPolicies => {
    if (set === undefined) return { answer: "none" };
    const read = contextReader(context);
    const kept: FilePolicy[] = [];
    let allHeld = true;
    for (const policy of set.members) {
      const outcome = judged(policy.guard, read);
      if (outcome === false) continue;
      kept.push(policy);
      allHeld &&= outcome === true && policy.scopeAlwaysHolds && policy.json !== undefined;
    }
    if (kept.length === 0) return { answer: "none" };
    if (allHeld) return { answer: "toolgate", held: kept.map((policy) => ({ id: policy.id, effect: policy.json!.effect })), tool: set };
    return { answer: "cedar", set: preparsed(set, kept) };
  };
}

/**
 * The file's policies in file order. Cedar hands them back in the order of its own map (`policy10`
 * before `policy2`), so each is put back in place by where its text is in the file; undefined when a
 * policy's text is not in the file as written.
 */
function filePolicies(text: string): FilePolicy[] | undefined {
  const cedar = cedarWasm();
  const parts = cedar.policySetTextToParts(text);
  if (parts.type === "failure") return undefined;
  const placed = parts.policies.map((policy) => ({ policy, offset: text.indexOf(policy) }));
  if (placed.some((part) => part.offset < 0)) return undefined;
  placed.sort((a, b) => a.offset - b.offset);
  return placed.map(({ policy, offset }, index) => {
    const json = cedar.policyToJson(policy);
    const annotations = json.type === "success" ? (json.json.annotations ?? {}) : {};
    const id = `policy${index}`;
    return {
      id,
      text: policy,
      label: { name: annotations.id ?? id, message: annotations.message, byteOffset: Buffer.byteLength(text.slice(0, offset)) },
      actions: json.type === "success" ? scopedTools(json.json.action) : "all",
      json: json.type === "success" ? json.json : undefined,
      guard: json.type === "success" ? guardOf(json.json) : undefined,
      scopeAlwaysHolds: json.type === "success" && scopeAlwaysHolds(json.json),
    };
  });
}

function readsOf(policies: readonly FilePolicy[]): ContextReads {
  const json = policies.map((policy) => policy.json);
  return json.every((policy) => policy !== undefined) ? contextReads(json) : readsEverything;
}

/** The policy's scope holds on every call it is asked about (see FilePolicy). */
function scopeAlwaysHolds(policy: PolicyJson): boolean {
  return policy.principal.op === "All" && policy.resource.op === "All" && (policy.action.op === "All" || scopedTools(policy.action) !== "all");
}

type ActionScope = PolicyJson["action"];
type EntityRef = { type?: string; id?: string; __entity?: { type: string; id: string } };

function scopedTools(scope: ActionScope): readonly string[] | "all" {
  if (scope.op === "All") return "all";
  const entities = "entities" in scope ? (scope.entities as EntityRef[]) : "entity" in scope ? [scope.entity as EntityRef] : undefined;
  if (entities === undefined) return "all";
  const tools: string[] = [];
  for (const entity of entities) {
    const { type, id } = entity.__entity ?? entity;
    // Only `Action::"…"` is a tool; anything else is left for Cedar to judge on every call.
    if (type !== "Action" || typeof id !== "string") return "all";
    tools.push(id);
  }
  return tools;
}
