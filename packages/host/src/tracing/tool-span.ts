import type { Context, ContextManager, Span, SpanContext, SpanKind, SpanStatusCode } from "@opentelemetry/api";
import type { SessionInfo, ToolCall, ToolResult, Verdict } from "@toolgate/plugin-sdk";
import { shadowOf } from "../gate/shadow.js";
import { registeredContextManager, registeredTracer } from "./registered-tracer.js";

// The API's enums as plain values: importing them would load the API.
const internalKind: SpanKind.INTERNAL = 0;
const errorStatus: SpanStatusCode.ERROR = 2;
/** `createContextKey` in the API is `Symbol.for(description)`, so this is the key `trace.setSpan` uses. */
const activeSpanKey = Symbol.for("OpenTelemetry Context Key SPAN");

type Decided = Verdict | Promise<Verdict>;

/**
 * The span of the `checkToolCall` that decided a verdict, by the verdict: the host remembers that very
 * object for a following `callTool(call, { skipPreToolCallHook: true })`, whose span then links to it.
 */
const checkSpans = new WeakMap<Verdict, SpanContext>();

/**
 * One call's `execute_tool` span (OpenTelemetry GenAI conventions), from the gate's first look at the
 * call to its end: the block, the verdict `checkToolCall` hands back, or the tool's result. While the
 * call is decided and run, the span is the active one, so spans that hooks and the tool start are its
 * children. Created only when an SDK is registered (`startToolSpan`).
 */
export class ToolSpan {
  readonly #span: Span;
  readonly #context: Context | undefined;
  readonly #manager: ContextManager | undefined;

  constructor(span: Span, manager: ContextManager | undefined) {
    this.#span = span;
    this.#manager = manager;
    this.#context = manager?.active().setValue(activeSpanKey, span);
  }

  /** `callTool`: `admit` decides, `proceed` runs the verdict (the tool, or the block); the span ends with its result. */
  run(admit: () => Decided, proceed: (verdict: Verdict) => Promise<ToolResult>): Promise<ToolResult> {
    return this.#within(() => {
      let result: Promise<ToolResult>;
      try {
        const verdict = admit();
        const go = (decided: Verdict) => {
          this.#decided(decided);
          return proceed(decided);
        };
        result = verdict instanceof Promise ? verdict.then(go) : go(verdict);
      } catch (error) {
        this.#failed(error);
        throw error;
      }
      return result.then(
        (ended) => {
          this.#ended(ended);
          return ended;
        },
        (error: unknown) => {
          this.#failed(error);
          throw error;
        },
      );
    });
  }

  /** `checkToolCall`: the span ends with the verdict; the tool, if it runs, runs elsewhere. */
  check(decide: () => Decided): Decided {
    return this.#within(() => {
      let verdict: Decided;
      try {
        verdict = decide();
      } catch (error) {
        this.#failed(error);
        throw error;
      }
      const end = (decided: Verdict) => {
        this.#decided(decided);
        checkSpans.set(decided, this.#span.spanContext());
        if (decided.action === "block") this.#span.setAttribute("toolgate.outcome", "blocked");
        this.#span.end();
        return decided;
      };
      if (!(verdict instanceof Promise)) return end(verdict);
      return verdict.then(end, (error: unknown) => {
        this.#failed(error);
        throw error;
      });
    });
  }

  #within<T>(work: () => T): T {
    return this.#manager !== undefined && this.#context !== undefined ? this.#manager.with(this.#context, work) : work();
  }

  #decided(verdict: Verdict): void {
    const span = this.#span;
    span.setAttribute("toolgate.verdict", verdict.action);
    if (verdict.source !== undefined) {
      span.setAttribute("toolgate.source.kind", verdict.source.kind);
      span.setAttribute("toolgate.source.name", verdict.source.name);
    }
    if (verdict.message !== undefined) span.setAttribute("toolgate.message", verdict.message);
    const shadow = shadowOf(verdict);
    if (shadow !== undefined) {
      // A shadow participant would have decided otherwise: what, and who.
      span.setAttribute("toolgate.shadow.verdict", shadow.action);
      span.setAttribute("toolgate.shadow.source.kind", shadow.source.kind);
      span.setAttribute("toolgate.shadow.source.name", shadow.source.name);
    }
    const checked = checkSpans.get(verdict);
    if (checked !== undefined) {
      // Decided earlier by checkToolCall, in a span of its own: this one is the run.
      span.setAttribute("toolgate.checked", true);
      span.addLink?.({ context: checked });
    }
  }

  #ended(result: ToolResult): void {
    const span = this.#span;
    span.setAttribute("toolgate.outcome", result.status);
    // Allowed by the gate but stopped after it (the host closed before the tool started).
    if (result.status === "blocked") span.setAttribute("toolgate.verdict", "block");
    if (result.status === "error") {
      span.setAttribute("error.type", "tool_error");
      span.setStatus({ code: errorStatus, message: result.content });
    }
    span.end();
  }

  #failed(error: unknown): void {
    const span = this.#span;
    span.setAttribute("error.type", error instanceof Error ? error.name : "_OTHER");
    span.setStatus({ code: errorStatus, message: error instanceof Error ? error.message : String(error) });
    span.end();
  }
}

/**
 * The span for one call, or undefined when no OpenTelemetry SDK is registered: the cost of tracing
 * when it is off is one read of a global. Tracing never fails a call: a provider that throws is skipped.
 */
export function startToolSpan(call: ToolCall, session: SessionInfo): ToolSpan | undefined {
  const tracer = registeredTracer();
  if (tracer === undefined) return undefined;
  try {
    const attributes: Record<string, string> = {
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": call.name,
      "gen_ai.tool.call.id": call.id,
      "session.id": session.id,
    };
    if (call.kind !== undefined) attributes["toolgate.tool.kind"] = call.kind;
    const span = tracer.startSpan(`execute_tool ${call.name}`, { kind: internalKind, attributes });
    return new ToolSpan(span, registeredContextManager());
  } catch {
    return undefined;
  }
}
