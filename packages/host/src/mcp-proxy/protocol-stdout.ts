import { Writable } from "node:stream";

/**
 * Keeps stdout for MCP messages only. Everything else that would reach stdout (a plugin's
 * `console.log`, a stray `process.stdout.write`) goes to stderr instead: one foreign line on stdout
 * breaks the client's JSON-RPC stream. Returns the one writer that still reaches the real stdout.
 */
export function reserveStdoutForProtocol(): Writable {
  const writeToStdout = process.stdout.write.bind(process.stdout);
  const protocolOut = new Writable({
    write(chunk: Buffer, _encoding, done) {
      writeToStdout(chunk, (error) => done(error ?? null));
    },
  });
  process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;
  console.log = console.error;
  console.info = console.error;
  console.debug = console.error;
  return protocolOut;
}
