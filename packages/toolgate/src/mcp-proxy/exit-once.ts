import type { HostLogger } from "@toolgate/host";

/** Ends a running proxy with an exit code, saying why when there is more to say than "the client left". */
export type EndProxy = (code: number, message?: string) => void;

/**
 * How a running proxy ends, once whatever comes first: logs the reason, closes what it holds
 * (`closeAll`), then resolves its exit code. The client closing stdin ends it with 0, and so do SIGTERM
 * and SIGINT: clients stop servers with a signal as often as by closing stdin, and the upstream is
 * stopped either way.
 */
export function exitOnce(logger: HostLogger, closeAll: () => readonly unknown[], resolve: (code: number) => void): EndProxy {
  let ended = false;
  const end: EndProxy = (code, message) => {
    if (ended) return;
    ended = true;
    if (message !== undefined) logger.error(message);
    void Promise.allSettled(closeAll()).then(() => resolve(code));
  };
  process.stdin.once("end", () => end(0));
  process.once("SIGTERM", () => end(0));
  process.once("SIGINT", () => end(0));
  return end;
}
