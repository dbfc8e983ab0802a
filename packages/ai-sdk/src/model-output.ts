import { isBlockedToolOutput } from "./blocked-output.js";

type ToModelOutput = (argument: unknown) => unknown;

/** Outputs `execute` returned: ai@5 hands these to `toModelOutput` as they are. */
const executedOutputs = new WeakSet<object>();

export function rememberOutput(output: unknown): void {
  if (typeof output === "object" && output !== null) executedOutputs.add(output);
}

/**
 * ai@6 calls `toModelOutput({ toolCallId, input, output })`; ai@5 calls `toModelOutput(output)`. An
 * object `execute` returned itself is an ai@5 output, whatever its keys.
 */
function isOptionsArgument(argument: unknown): argument is { toolCallId: string; output: unknown } {
  if (typeof argument !== "object" || argument === null || executedOutputs.has(argument)) return false;
  return typeof (argument as { toolCallId?: unknown }).toolCallId === "string" && Object.hasOwn(argument, "output") && Object.hasOwn(argument, "input");
}

/** The SDK's own default: text for a string, JSON for anything else. */
function defaultModelOutput(output: unknown): unknown {
  return typeof output === "string" ? { type: "text", value: output } : { type: "json", value: output === undefined ? null : output };
}

/**
 * A `toModelOutput` that turns a blocked call into the denial the model reads, the SDK's
 * `execution-denied` (ai@6 and later; ai@5 has none, so there it is `error-text`), and leaves every
 * other output to the tool's own `toModelOutput` or the SDK's default.
 */
export function gatedModelOutput(original: ToModelOutput | undefined): ToModelOutput {
  return (argument) => {
    if (isOptionsArgument(argument)) {
      const { output } = argument;
      if (isBlockedToolOutput(output)) return { type: "execution-denied", reason: output.reason };
      return original ? original(argument) : defaultModelOutput(output);
    }
    if (isBlockedToolOutput(argument)) return { type: "error-text", value: argument.reason };
    return original ? original(argument) : defaultModelOutput(argument);
  };
}
