import type { Environment } from "@marcbachmann/cel-js";
import type { PolicyContext } from "@toolgate/plugin-sdk";
import { celBindings, createCelEnvironment } from "./environment.js";

export type CelAction = "block" | "ask" | "allow";

export interface CelRuleSpec {
  readonly expression: string;
  readonly action: CelAction;
  readonly message?: string | undefined;
  /** Where the rule is written, as errors name it: `toolgate.config.yaml: hooks.pre_tool_call[0].rules[2]`. */
  readonly where: string;
}

/** The first rule that held, with its position in the list. */
export interface CelMatch {
  readonly index: number;
  readonly rule: CelRuleSpec;
}

/** A rule that does not compile (at load), or failed to evaluate on a call (at run time). */
export class CelRuleError extends Error {
  override name = "CelRuleError";
}

type Evaluate = (bindings: Record<string, unknown>) => unknown;

/** A list of compiled rules: `firstMatch` evaluates them in order and stops at the first that holds. */
export class CelRules {
  readonly #rules: readonly CelRuleSpec[];
  readonly #evaluators: readonly Evaluate[];

  private constructor(rules: readonly CelRuleSpec[], evaluators: readonly Evaluate[]) {
    this.#rules = rules;
    this.#evaluators = evaluators;
  }

  /**
   * Parses and type-checks every rule against the context's variables. Throws a `CelRuleError` naming
   * the first rule that does not parse, does not type-check, or is not a boolean expression.
   */
  static compile(rules: readonly CelRuleSpec[]): CelRules {
    const environment = createCelEnvironment();
    return new CelRules(
      rules,
      rules.map((rule) => compileOne(environment, rule)),
    );
  }

  get size(): number {
    return this.#rules.length;
  }

  /**
   * The first rule whose expression is true for the call, or undefined when none is. An expression
   * that fails on this call (a missing key, a wrong type, a result that is not a bool) throws a
   * `CelRuleError` naming the rule: the caller blocks rather than skip a rule it could not read.
   */
  firstMatch(context: PolicyContext): CelMatch | undefined {
    const bindings = celBindings(context);
    for (let index = 0; index < this.#evaluators.length; index++) {
      const rule = this.#rules[index] as CelRuleSpec;
      let value: unknown;
      try {
        value = (this.#evaluators[index] as Evaluate)(bindings);
      } catch (error) {
        throw new CelRuleError(`${rule.where} (${rule.expression}) failed on this call: ${firstLine(error)}`);
      }
      if (typeof value !== "boolean") throw new CelRuleError(`${rule.where} (${rule.expression}) gave ${describe(value)}, not a bool`);
      if (value) return { index, rule };
    }
    return undefined;
  }
}

function compileOne(environment: Environment, rule: CelRuleSpec): Evaluate {
  let parsed: ReturnType<Environment["parse"]>;
  try {
    parsed = environment.parse(rule.expression);
  } catch (error) {
    throw new CelRuleError(`${rule.where}.expression does not parse: ${errorText(error)}`);
  }
  const checked = parsed.check();
  if (!checked.valid) throw new CelRuleError(`${rule.where}.expression does not type-check: ${errorText(checked.error)}`);
  // `dyn` may still be a bool at run time (`args.flag`); anything else never is.
  if (checked.type !== "bool" && checked.type !== "dyn")
    throw new CelRuleError(`${rule.where}.expression is a ${checked.type}, not a bool: ${JSON.stringify(rule.expression)}`);
  return parsed as Evaluate;
}

/** The library's message with its caret picture of the expression, indented under the rule's name. */
function errorText(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const lines = text.split("\n").filter((line) => line.trim() !== "");
  return lines.join("\n    ");
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split("\n", 1)[0] ?? text;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "bigint") return `the int ${value}`;
  if (typeof value === "string") return `the string ${JSON.stringify(value)}`;
  if (Array.isArray(value)) return "a list";
  return typeof value === "object" ? "a map" : `${typeof value} ${String(value)}`;
}
