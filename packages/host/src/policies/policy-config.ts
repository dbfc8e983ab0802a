import * as v from "valibot";
import { ruleSyntaxError } from "./permission-rules.js";

/** The longest timeout Node's timers honour, in seconds. */
const maxTimeoutSeconds = Math.floor((2 ** 31 - 1) / 1000);

const nonEmpty = v.pipe(v.string("must be a string"), v.nonEmpty("must not be empty"));

const matcher = v.optional(
  v.pipe(
    v.string("must be a string (a regular expression over the whole tool name)"),
    // "*" alone matches every tool, as in Claude Code's settings, though it is no regular expression.
    v.check((pattern) => pattern.trim() === "*" || isRegExp(pattern), 'must be "*" or a valid regular expression over the tool name'),
  ),
);
/** A hook with `shadow: true` is asked and recorded, never part of the verdict. */
const shadow = v.optional(v.boolean("must be true or false"));
const timeout = v.optional(
  v.pipe(
    v.number("must be a number of seconds"),
    v.check((seconds) => seconds > 0 && seconds <= maxTimeoutSeconds, `must be a number of seconds above 0 and at most ${maxTimeoutSeconds}`),
  ),
);

const CommandHookSchema = v.strictObject(
  { type: v.optional(v.literal("command", 'must be "command", "http" or "model"')), matcher, timeout, shadow, command: nonEmpty },
  "is not a command hook key (type, matcher, timeout, shadow, command)",
);

const HttpHookSchema = v.strictObject(
  {
    type: v.literal("http"),
    matcher,
    timeout,
    shadow,
    url: v.pipe(nonEmpty, v.url("must be an absolute http(s) URL"), v.regex(/^https?:\/\//i, "must be an http(s) URL")),
    headers: v.optional(v.record(v.string(), v.string("must be a string"), "must be an object of header names to strings")),
    allowedEnvVars: v.optional(v.array(nonEmpty, "must be an array of environment variable names")),
  },
  "is not an http hook key (type, matcher, timeout, shadow, url, headers, allowedEnvVars)",
);

const ModelHookSchema = v.strictObject(
  {
    type: v.literal("model"),
    matcher,
    timeout,
    shadow,
    model: v.pipe(nonEmpty, v.regex(/^[^:]+:.+$/, 'must be "provider:model", e.g. "openai:gpt-4o-mini" or "anthropic:claude-3-5-haiku-latest"')),
    prompt: v.optional(nonEmpty),
    baseURL: v.optional(v.pipe(nonEmpty, v.url("must be an absolute URL"))),
    apiKeyEnv: v.optional(nonEmpty),
  },
  "is not a model hook key (type, matcher, timeout, shadow, model, prompt, baseURL, apiKeyEnv)",
);

const CedarHookSchema = v.strictObject(
  {
    type: v.literal("cedar"),
    matcher,
    timeout,
    shadow,
    policies: v.pipe(nonEmpty, v.description("the Cedar policy file, relative to the config's folder")),
    schema: v.optional(v.pipe(nonEmpty, v.description("a Cedar schema file (Cedar syntax, or JSON when it ends in .json) the policies must validate against"))),
  },
  "is not a cedar hook key (type, matcher, timeout, shadow, policies, schema)",
);

/** One CEL rule, inline under `rules` or an item of a rules `file`. */
export const CelRuleSchema = v.strictObject(
  {
    expression: nonEmpty,
    action: v.picklist(["block", "ask", "allow"], 'must be "block", "ask" or "allow"'),
    message: v.optional(nonEmpty),
  },
  "is not a CEL rule key (expression, action, message)",
);

const CelHookSchema = v.pipe(
  v.strictObject(
    {
      type: v.literal("cel"),
      matcher,
      timeout,
      shadow,
      rules: v.optional(v.array(CelRuleSchema, "must be an array of rules ({ expression, action, message? })")),
      /** A YAML or JSON file holding a list of rules, relative to the config file's folder. */
      file: v.optional(nonEmpty),
    },
    "is not a cel hook key (type, matcher, timeout, shadow, rules, file)",
  ),
  v.check((hook) => hook.rules !== undefined || hook.file !== undefined, "needs rules, a file of rules, or both"),
);

const hookSchemas = {
  command: CommandHookSchema,
  http: HttpHookSchema,
  model: ModelHookSchema,
  cedar: CedarHookSchema,
  cel: CelHookSchema,
} as const;
type HookType = keyof typeof hookSchemas;
const hookTypes = Object.keys(hookSchemas) as HookType[];

// Chosen by `type` rather than a union, so a bad key is reported against the kind the entry says it is.
const HookSchema = v.lazy((entry) => {
  const type = typeof entry === "object" && entry !== null ? (entry as { type?: unknown }).type : undefined;
  if (type === undefined) return CommandHookSchema;
  if (typeof type === "string" && Object.hasOwn(hookSchemas, type)) return hookSchemas[type as HookType];
  return v.strictObject({ type: v.picklist(hookTypes, `must be ${hookTypeList()}`) });
});

function hookTypeList(): string {
  const quoted = hookTypes.map((type) => `"${type}"`);
  return `${quoted.slice(0, -1).join(", ")} or ${quoted.at(-1)}`;
}

export type CommandHookConfig = v.InferOutput<typeof CommandHookSchema>;
export type HttpHookConfig = v.InferOutput<typeof HttpHookSchema>;
export type ModelHookConfig = v.InferOutput<typeof ModelHookSchema>;
export type CedarHookConfig = v.InferOutput<typeof CedarHookSchema>;
export type CelHookConfig = v.InferOutput<typeof CelHookSchema>;
export type HookConfig = CommandHookConfig | HttpHookConfig | ModelHookConfig | CedarHookConfig | CelHookConfig;

const hookList = v.optional(v.array(HookSchema, "must be an array of hooks"));

export const HooksConfigSchema = v.strictObject(
  { pre_tool_call: hookList, post_tool_call: hookList },
  "is not a hook event for configured hooks (pre_tool_call, post_tool_call)",
);

export interface HooksConfig {
  pre_tool_call?: HookConfig[];
  post_tool_call?: HookConfig[];
}

const ruleList = v.optional(
  v.array(
    v.pipe(
      nonEmpty,
      v.rawCheck(({ dataset, addIssue }) => {
        if (!dataset.typed) return;
        const error = ruleSyntaxError(dataset.value);
        if (error !== undefined) addIssue({ message: `is not a rule (toolGlob or toolGlob:arg=valueGlob): ${error}` });
      }),
    ),
    "must be an array of rules",
  ),
);

const ShadowRulesSchema = v.strictObject({ deny: ruleList, ask: ruleList, allow: ruleList }, "is not a shadow rules key (deny, ask, allow)");

/** `shadow: true` puts every rule beside it in shadow mode; `shadow: { deny, ask, allow }` adds rules that only watch. */
export const PermissionsConfigSchema = v.strictObject(
  {
    deny: ruleList,
    ask: ruleList,
    allow: ruleList,
    // Chosen by shape, so a bad rule inside the object is reported where it is.
    shadow: v.optional(
      v.lazy((value) =>
        typeof value === "object" && value !== null ? ShadowRulesSchema : v.boolean("must be true, false or an object of rules ({ deny, ask, allow })"),
      ),
    ),
  },
  "is not a permissions key (deny, ask, allow, shadow)",
);

function isRegExp(pattern: string): boolean {
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
}
