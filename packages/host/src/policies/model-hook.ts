import type { PreToolCallDecision } from "@toolgate/plugin-sdk";
import { importOptional, MissingPackageError, modelHooksPackage } from "../optional-packages/import-optional.js";
import { PolicyHookError } from "./command-hook.js";
import { readHookAnswer } from "./hook-dialects.js";
import type { HookInput } from "./hook-input.js";
import { parseLenientJson } from "./lenient-json.js";
import type { ModelHookConfig } from "./policy-config.js";

type ModelHooksModule = typeof import("@toolgate/model-hooks");

let loaded: Promise<ModelHooksModule> | undefined;

/**
 * Asks the model of a `type: "model"` hook, through `@toolgate/model-hooks` and the project's own AI
 * SDK, and reads its answer. The package loads on the first model hook run; when it is not installed,
 * every run is a `PolicyHookError` naming the `npm install` line, and the call is blocked like any
 * failed policy hook. A wrong setting, a client error, the timeout or an unreadable answer is one too.
 */
export async function runModelHook(config: ModelHookConfig, input: HookInput, baseDir: string, signal: AbortSignal): Promise<PreToolCallDecision | undefined> {
  const { askModel, ModelHookError } = await loadModelHooks(baseDir);
  let text: string;
  try {
    text = await askModel(config, input, signal);
  } catch (error) {
    if (error instanceof ModelHookError) throw new PolicyHookError(error.message);
    throw new PolicyHookError(`the model call failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  const parsed = parseLenientJson(text);
  if (parsed === undefined) throw new PolicyHookError(`the model's answer holds no JSON decision: ${text.slice(0, 200)}`);
  const answer = readHookAnswer(parsed, `blocked by model hook ${config.model}`);
  if (!answer.ok) throw new PolicyHookError(`the model's answer is not a decision: ${answer.reason}`);
  return answer.decision;
}

async function loadModelHooks(baseDir: string): Promise<ModelHooksModule> {
  loaded ??= importOptional(modelHooksPackage, baseDir, () => import("@toolgate/model-hooks"));
  try {
    return await loaded;
  } catch (error) {
    loaded = undefined;
    if (error instanceof MissingPackageError) throw new PolicyHookError(error.message);
    throw new PolicyHookError(`${modelHooksPackage.name} failed to load: ${error instanceof Error ? error.message : String(error)}`);
  }
}
