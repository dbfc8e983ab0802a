export { compileCedarPolicies, CedarPolicyError, type CedarPolicyFiles, type CedarPolicySet, type CedarVerdict } from "./policy-set.js";
export { toCedarRequest, unknownAgent, type CedarRequest } from "./request.js";
export { cedarSchema, cedarSchemaText, type CedarToolDescription } from "./schema.js";
export type { CedarSource } from "./source-location.js";
