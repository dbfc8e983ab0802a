export { askModel, ModelHookError, type ModelJudgeConfig, type ModelJudgeInput } from "./model-hook.js";
