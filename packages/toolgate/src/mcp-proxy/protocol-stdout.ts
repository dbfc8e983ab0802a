import type { Writable } from "node:stream";

/**
 * Keeps stdout for MCP messages only. Everything else that would reach stdout (a plugin's
 * `console.log`, a stray `process.stdout.write`) goes to stderr instead: one foreign line on stdout
 * breaks the client's JSON-RPC stream. Returns the one writer that still reaches the real stdout.
 */
export function reserveStdoutForProtocol(): Writable {
  const stdout = process.stdout;
  const writeToStdout = stdout.write.bind(stdout);
  // The SDK's stdio transport calls only `write` and `once("drain")`. These two, on the real stdout,
  // rather than a stream of our own in between, which would copy every message into a Buffer first.
  const protocolOut = {
    write: (chunk: string) => writeToStdout(chunk),
    once: (event: string, listener: () => void) => stdout.once(event, listener),
  } as unknown as Writable;
  stdout.write = process.stderr.write.bind(process.stderr) as typeof stdout.write;
  console.log = console.error;
  console.info = console.error;
  console.debug = console.error;
  return protocolOut;
}
