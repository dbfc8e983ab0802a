/** A policy or schema file that does not parse or validate: the message names the file and line. */
export class CedarPolicyError extends Error {
  override name = "CedarPolicyError";
}
