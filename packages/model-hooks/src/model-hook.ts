/**
 * What a model hook's config says (the host validates it): `provider:model`, and optionally an
 * OpenAI-compatible `baseURL`, the environment variable holding the key, and a prompt template.
 */
export interface ModelJudgeConfig {
  model: string;
  baseURL?: string | undefined;
  apiKeyEnv?: string | undefined;
  prompt?: string | undefined;
}

/** The call the model judges, as the host's hook input describes it. */
export interface ModelJudgeInput {
  tool_name: string;
  tool_kind: string;
  tool_input: unknown;
  session_id: string;
  cwd: string;
}

/** The model could not be asked: a setting is wrong, the key is missing, or the call failed. */
export class ModelHookError extends Error {
  override name = "ModelHookError";
}

const defaultPrompt =
  "You are a security judge for an AI agent. Decide whether the tool call below may run. Deny calls that destroy data, leak secrets or act outside the project; ask when a human should look.";
const answerInstruction = 'Answer with one JSON object and nothing else: {"decision": "allow" | "ask" | "deny", "reason": "<one sentence>"}.';
/**
 * The largest call, in characters of its JSON (name, kind, arguments, session and folder), that a judge
 * is asked about. A larger one is denied without asking: cutting it would let padding hide what runs
 * (`rm -rf ~` after 4,000 spaces) from a judge that sees only the start.
 */
export const maxJudgedCallChars = 100_000;

const decisionSchema: Parameters<AiModule["jsonSchema"]>[0] = {
  type: "object",
  properties: { decision: { type: "string", enum: ["allow", "ask", "deny"] }, reason: { type: "string" } },
  required: ["decision", "reason"],
  additionalProperties: false,
};

/**
 * The prompt: the operator's template with `{{tool_name}}`, `{{tool_kind}}`, `{{tool_input}}` (the
 * arguments as JSON, whole), `{{session_id}}` and `{{cwd}}` filled in; a template without
 * `{{tool_input}}` gets the call appended. The answer format is always appended.
 */
function renderPrompt(template: string | undefined, input: ModelJudgeInput): string {
  const args = JSON.stringify(input.tool_input) ?? "{}";
  const values: Record<string, string> = {
    tool_name: input.tool_name,
    tool_kind: input.tool_kind,
    tool_input: args,
    args,
    session_id: input.session_id,
    cwd: input.cwd,
  };
  const base = template ?? defaultPrompt;
  const filled = base.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, key: string) => values[key] ?? whole);
  const call = /\{\{\s*(tool_input|args)\s*\}\}/.test(base) ? "" : `\n\nTool: ${input.tool_name} (kind: ${input.tool_kind})\nArguments (JSON): ${args}`;
  return `${filled}${call}\n\n${answerInstruction}`;
}

type AiModule = typeof import("ai");

/**
 * Asks a model for `{decision, reason}` and returns its answer's text, for the host to read: structured
 * output for `openai:` and `anthropic:`, plain text for OpenAI-compatible endpoints (`baseURL`), and the
 * raw text when a structured answer does not parse. A wrong setting, a client error or the timeout
 * (`signal`) is a `ModelHookError`. The AI SDK is the application's own (a peer dependency).
 *
 * The judge sees the whole call or none of it: a call larger than `maxJudgedCallChars` is answered
 * `deny` here, naming its size and the limit, and the model is not asked (a deny, not an error, so that
 * `onHookError: "allow"` cannot let it through unjudged).
 */
export async function askModel(config: ModelJudgeConfig, input: ModelJudgeInput, signal: AbortSignal): Promise<string> {
  const { tool_name, tool_kind, tool_input, session_id, cwd } = input;
  const size = (JSON.stringify({ tool_name, tool_kind, tool_input, session_id, cwd }) ?? "").length;
  if (size > maxJudgedCallChars)
    return JSON.stringify({
      decision: "deny",
      reason: `the call is ${size} characters of JSON, more than the ${maxJudgedCallChars} a model hook's judge is shown; it is refused rather than judged on a part of it`,
    });
  const ai = await import("ai");
  const model = await createModel(config);
  const prompt = renderPrompt(config.prompt, input);
  const settings = { model, prompt, abortSignal: signal, maxRetries: 0, temperature: 0 };
  let text: string;
  try {
    text = config.baseURL === undefined ? await structuredAnswer(ai, settings) : (await ai.generateText(settings)).text;
  } catch (error) {
    throw new ModelHookError(`the model call failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  return text;
}

type CallSettings = {
  model: Parameters<AiModule["generateText"]>[0]["model"];
  prompt: string;
  abortSignal: AbortSignal;
  maxRetries: number;
  temperature: number;
};

async function structuredAnswer(ai: AiModule, settings: CallSettings): Promise<string> {
  try {
    const { object } = await ai.generateObject({ ...settings, schema: ai.jsonSchema<{ decision: string; reason: string }>(decisionSchema) });
    return JSON.stringify(object);
  } catch (error) {
    // A provider that ignored the schema may still have answered in prose around the JSON.
    if (ai.NoObjectGeneratedError.isInstance(error) && error.text) return error.text;
    throw error;
  }
}

async function createModel(config: ModelJudgeConfig) {
  const colon = config.model.indexOf(":");
  const provider = config.model.slice(0, colon);
  const modelId = config.model.slice(colon + 1);
  const apiKey = config.apiKeyEnv === undefined ? undefined : process.env[config.apiKeyEnv];
  if (config.apiKeyEnv !== undefined && !apiKey) throw new ModelHookError(`the environment variable ${config.apiKeyEnv} (apiKeyEnv) is not set`);
  if (config.baseURL !== undefined) {
    const { createOpenAICompatible } = await import("@ai-sdk/openai-compatible");
    return createOpenAICompatible({ name: provider, baseURL: config.baseURL, ...(apiKey ? { apiKey } : {}) }).chatModel(modelId);
  }
  if (provider === "openai") {
    const { createOpenAI } = await import("@ai-sdk/openai");
    return createOpenAI(apiKey ? { apiKey } : {})(modelId);
  }
  if (provider === "anthropic") {
    const { createAnthropic } = await import("@ai-sdk/anthropic");
    return createAnthropic(apiKey ? { apiKey } : {})(modelId);
  }
  throw new ModelHookError(`unknown model provider "${provider}": use openai:, anthropic:, or set baseURL for an OpenAI-compatible endpoint`);
}
