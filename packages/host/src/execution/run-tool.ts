import type { SessionInfo, ToolCall, ToolDefinition, ToolResult } from "@toolgate/plugin-sdk";
import { thawArgs } from "../call/freeze-call.js";
import { isNativePromise, thenOf } from "../call/thenable.js";
import { describeThrown } from "../errors.js";
import { errorResult, okResult } from "./tool-results.js";

type Finish = (result: ToolResult) => ToolResult | Promise<ToolResult>;

/**
 * Runs the tool and hands its result to `finish` exactly once: directly for a synchronous tool, as the
 * reaction to an async tool's promise otherwise (one promise between the tool and the caller).
 */
export function runTool(tool: ToolDefinition, call: ToolCall, session: SessionInfo, signal: AbortSignal, finish: Finish): ToolResult | Promise<ToolResult> {
  const succeeded = (output: unknown) => finish(okResult(call, output));
  const failed = (error: unknown) => finish(errorResult(call, `Tool "${call.name}" failed: ${describeThrown(error)}`));
  let output: unknown;
  let then: ReturnType<typeof thenOf>;
  let native = false;
  try {
    output = tool.execute(thawArgs(call.args), { call, session, signal });
    then = thenOf(output);
    native = then !== undefined && isNativePromise(output as object, then);
  } catch (error) {
    return failed(error);
  }
  if (then === undefined) return succeeded(output);
  // An ordinary promise is adopted by its own `then`; anything else through a fresh promise, so a
  // hostile thenable (calling back twice, or never, or returning junk) cannot reach the caller.
  if (!native) return new Promise((resolve, reject) => then.call(output, resolve, reject)).then(succeeded, failed);
  try {
    return then.call(output, succeeded, failed) as Promise<ToolResult>;
  } catch (error) {
    // Thrown before any reaction was registered (a Proxy passing for a promise): `finish` has not run.
    return failed(error);
  }
}
