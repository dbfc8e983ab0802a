export { askModel, maxJudgedCallChars, ModelHookError, type ModelJudgeConfig, type ModelJudgeInput } from "./model-hook.js";
