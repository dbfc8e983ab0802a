export { toolgateMiddleware, type ToolgateMiddlewareOptions } from "./toolgate-middleware.js";
