import type { StoreBackend } from "@toolgate/plugin-sdk/host";

/** A store that cannot be opened: every operation rejects with `reason`, so what counts fails closed. */
export function unavailableStore(label: string, reason: string): StoreBackend {
  const fail = () => Promise.reject(new Error(reason));
  return {
    label,
    get: fail,
    set: fail,
    delete: fail,
    increment: fail,
    reserve: fail,
    index: fail,
    settle: fail,
    settleCall: fail,
    close: () => Promise.resolve(),
  };
}
