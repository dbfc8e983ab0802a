export { celVariables } from "./environment.js";
export { type CelAction, type CelMatch, CelRuleError, CelRules, type CelRuleSpec } from "./rules.js";
