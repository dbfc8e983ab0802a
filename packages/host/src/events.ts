import type { HostEvents } from "@toolgate/plugin-sdk";
import mittImport, { type Emitter } from "mitt";
import type { HostLogger } from "./logger.js";

// mitt's one .d.ts serves require and import, so under NodeNext TypeScript sees the CommonJS shape;
// at run time the import condition hands us the function itself.
const mitt = mittImport as unknown as typeof mittImport.default;

export type HostEmitter = Emitter<HostEvents>;

/** The host's typed emitter, and an `emit` that a throwing listener cannot break. */
export interface EventBus {
  readonly emitter: HostEmitter;
  emit<Name extends keyof HostEvents>(type: Name, payload: HostEvents[Name]): void;
}

export function createEventBus(logger: HostLogger): EventBus {
  const emitter = mitt<HostEvents>();
  const callSafely = (listener: () => void) => {
    try {
      listener();
    } catch (error) {
      logger.warn("an event listener threw; the host carries on", error);
    }
  };
  return {
    emitter,
    emit(type, payload) {
      // mitt calls listeners in a plain loop: one throw would skip the rest and reach the gate.
      const listeners = emitter.all.get(type) as ((payload: unknown) => void)[] | undefined;
      if (listeners) for (const listener of [...listeners]) callSafely(() => listener(payload));
      const wildcards = emitter.all.get("*") as ((type: string, payload: unknown) => void)[] | undefined;
      if (wildcards) for (const listener of [...wildcards]) callSafely(() => listener(type, payload));
    },
  };
}
