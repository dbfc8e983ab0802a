import type { ContextManager, Tracer, TracerProvider } from "@opentelemetry/api";

/**
 * Where `@opentelemetry/api` (major 1) keeps what an SDK registers: `trace.setGlobalTracerProvider`
 * stores its provider here, and `context.setGlobalContextManager` its context manager. A `Symbol.for`
 * key, so every copy of the API in a process (the app's, the SDK's, a bundled CLI's) shares one slot.
 */
const apiGlobalsKey = Symbol.for("opentelemetry.js.api.1");

interface ApiGlobals {
  readonly trace?: TracerProvider;
  readonly context?: ContextManager;
}

const tracerName = "@toolgate/host";

let cachedProvider: TracerProvider | undefined;
let cachedTracer: Tracer | undefined;

/**
 * The tracer of the provider an OpenTelemetry SDK registered in this process, or undefined when none is:
 * then nothing is loaded and nothing recorded. The provider is read from the API's global slot rather
 * than through an import of the API, so a process without an SDK never loads it, and a provider
 * registered at any time (a `--import` preload, or later by the app) serves the very next call. The
 * object found there is the one the API's own `trace.getTracerProvider()` returns.
 */
export function registeredTracer(): Tracer | undefined {
  const provider = apiGlobals()?.trace;
  if (provider === undefined) return undefined;
  // A provider replaced at run time (trace.disable(), then another registered) gets a tracer of its own.
  if (provider !== cachedProvider) {
    cachedTracer = provider.getTracer(tracerName);
    cachedProvider = provider;
  }
  return cachedTracer;
}

/** The registered context manager (AsyncLocalStorage-based under Node's SDK), if any. */
export function registeredContextManager(): ContextManager | undefined {
  return apiGlobals()?.context;
}

function apiGlobals(): ApiGlobals | undefined {
  return (globalThis as { [apiGlobalsKey]?: ApiGlobals })[apiGlobalsKey];
}
