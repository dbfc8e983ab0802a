export { toolgateHooks, type HookHost, type ToolgateHooks } from "./toolgate-hooks.js";
