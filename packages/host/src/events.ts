import type { HostEventName, HostEvents } from "@toolgate/plugin-sdk";
import mittImport, { type Emitter } from "mitt";
import type { HostLogger } from "./logger.js";

// mitt's one .d.ts serves require and import, so under NodeNext TypeScript sees the CommonJS shape;
// at run time the import condition hands us the function itself.
const mitt = mittImport as unknown as typeof mittImport.default;

/**
 * `host.events`: subscribe and unsubscribe, nothing else. Only the host emits: an app that could emit
 * `tool:blocked` would forge what plugins count (a rate limit refunds a blocked call's slot).
 */
export type HostEmitter = Pick<Emitter<HostEvents>, "on" | "off">;

/** Listeners by event name, as `createHost({ on })` takes them: attached before any plugin loads. */
export type HostEventListeners = { [Name in HostEventName]?: (payload: HostEvents[Name]) => void };

/** Every event the host emits, in the order of a call's life. */
export const hostEventNames = [
  "plugin:loaded",
  "plugin:error",
  "session:start",
  "tool:before",
  "tool:blocked",
  "tool:after",
  "tool:end",
  "hook:error",
  "hook:invalid",
  "hook:timeout",
  "decision",
  "session:end",
] as const satisfies readonly HostEventName[];

// Adding an event to HostEvents without listing it above fails to compile here.
type Unlisted = Exclude<HostEventName, (typeof hostEventNames)[number]>;
const everyEventListed: [Unlisted] extends [never] ? true : Unlisted = true;
void everyEventListed;

/** The host's typed emitter, the subscribe-only view apps get, and an `emit` that a throwing listener cannot break. */
export interface EventBus {
  readonly emitter: Emitter<HostEvents>;
  readonly subscriptions: HostEmitter;
  emit<Name extends HostEventName>(type: Name, payload: HostEvents[Name]): void;
  /** Whether anyone listens to `type`: on the hot path a payload is built only for someone. */
  listens(type: HostEventName): boolean;
}

export function createEventBus(logger: HostLogger, listeners: HostEventListeners = {}): EventBus {
  const emitter = mitt<HostEvents>();
  for (const name of hostEventNames) {
    const listener = listeners[name];
    if (listener) emitter.on(name, listener as never);
  }
  const callSafely = (listener: () => void) => {
    try {
      listener();
    } catch (error) {
      logger.warn("an event listener threw; the host carries on", error);
    }
  };
  const { all } = emitter;
  return {
    emitter,
    listens: (type) => (all.get(type)?.length ?? 0) > 0 || (all.get("*")?.length ?? 0) > 0,
    subscriptions: Object.freeze({ on: emitter.on, off: emitter.off }),
    emit(type, payload) {
      // mitt calls listeners in a plain loop: one throw would skip the rest and reach the gate.
      const named = emitter.all.get(type) as ((payload: unknown) => void)[] | undefined;
      if (named) for (const listener of [...named]) callSafely(() => listener(payload));
      const wildcards = emitter.all.get("*") as ((type: string, payload: unknown) => void)[] | undefined;
      if (wildcards) for (const listener of [...wildcards]) callSafely(() => listener(type, payload));
    },
  };
}
