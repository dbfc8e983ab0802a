import type { Host } from "@toolgate/host";
import { describeThrown } from "@toolgate/host/internal";
import type { StrayError } from "./stray-errors.js";

/** One host and the requests still using it. */
export interface Generation {
  /** Undefined when the host could not be created (a bad config): every decision then denies with `failure`. */
  host: Host | undefined;
  failure: string | undefined;
  /** The first error that escaped a plugin's hooks while this generation served (see stray-errors.ts). */
  stray: StrayError | undefined;
  inFlight: number;
  retired: boolean;
}

export interface LiveHost {
  /** The current generation, held until `release`: a reload never closes a host a request is using. */
  acquire(): Generation;
  release(generation: Generation): void;
  /** Creates a new host from the files as they are now and swaps it in; the old one closes once drained. */
  reload(): Promise<void>;
  readonly current: Generation;
  close(): Promise<void>;
}

/**
 * The host `toolgate serve` decides with, replaced whole when plugins or config change. Each request
 * finishes on the generation it started on; reloads run one at a time, and changes that arrive during
 * one are folded into a single next reload.
 */
export async function createLiveHost(open: () => Promise<Host>, onReload: (generation: Generation) => void = () => {}): Promise<LiveHost> {
  const openGeneration = async (): Promise<Generation> => {
    try {
      return { host: await open(), failure: undefined, stray: undefined, inFlight: 0, retired: false };
    } catch (error) {
      return { host: undefined, failure: describeThrown(error), stray: undefined, inFlight: 0, retired: false };
    }
  };
  let current = await openGeneration();
  let reloading: Promise<void> | undefined;
  let again = false;

  const retire = (generation: Generation) => {
    generation.retired = true;
    if (generation.inFlight === 0) void generation.host?.close();
  };

  const reloadOnce = async () => {
    const next = await openGeneration();
    const previous = current;
    current = next;
    retire(previous);
    onReload(next);
  };

  const reload = (): Promise<void> => {
    if (reloading) {
      again = true;
      return reloading;
    }
    reloading = (async () => {
      do {
        again = false;
        await reloadOnce();
      } while (again);
      reloading = undefined;
    })();
    return reloading;
  };

  return {
    acquire() {
      current.inFlight++;
      return current;
    },
    release(generation) {
      generation.inFlight--;
      if (generation.retired && generation.inFlight === 0) void generation.host?.close();
    },
    reload,
    get current() {
      return current;
    },
    async close() {
      await reloading;
      current.retired = true;
      await current.host?.close();
    },
  };
}
