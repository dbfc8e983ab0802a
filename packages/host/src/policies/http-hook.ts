import type { PreToolCallDecision } from "@toolgate/plugin-sdk";
import { PolicyHookError } from "./command-hook.js";
import { readHookText } from "./hook-dialects.js";
import { hookReason, type HookInput } from "./hook-input.js";
import type { HttpHookConfig } from "./policy-config.js";

/**
 * `${VAR}` in header values, expanded only for variables listed in `allowedEnvVars`; any other
 * reference becomes empty, so a config cannot send an arbitrary secret of the host's environment.
 */
function expandHeaders(headers: Readonly<Record<string, string>> = {}, allowed: readonly string[] = []): Record<string, string> {
  const names = new Set(allowed);
  const expanded: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    expanded[name] = value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, variable: string) => (names.has(variable) ? (process.env[variable] ?? "") : ""));
  return expanded;
}

/**
 * POSTs the hook input as JSON. A 2xx JSON body is a decision in any dialect, an empty 2xx no opinion;
 * any other status, a network error or a body that is no decision is a `PolicyHookError`. `signal`
 * (the gate's timeout or `host.close()`) aborts the request.
 */
export async function runHttpHook(config: HttpHookConfig, input: HookInput, signal: AbortSignal): Promise<PreToolCallDecision | undefined> {
  let response: Response;
  try {
    response = await fetch(config.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json", ...expandHeaders(config.headers, config.allowedEnvVars) },
      body: JSON.stringify(input),
      signal,
      redirect: "error",
    });
  } catch (error) {
    throw new PolicyHookError(
      `request failed: ${error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error)}`,
    );
  }
  const body = await readBody(response);
  if (response.status < 200 || response.status > 299)
    throw new PolicyHookError(`answered HTTP ${response.status}${body.trim() ? `: ${hookReason(body)}` : ""}`);
  const answer = readHookText(body, `blocked by http hook ${config.url}`);
  if (!answer.ok) throw new PolicyHookError(answer.reason);
  return answer.decision;
}

async function readBody(response: Response): Promise<string> {
  try {
    return await response.text();
  } catch (error) {
    throw new PolicyHookError(`the response body could not be read: ${error instanceof Error ? error.message : String(error)}`);
  }
}
