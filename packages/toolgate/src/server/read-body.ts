import type { IncomingMessage } from "node:http";

/** A request the server refuses, with the HTTP status that says why. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** A body past the size limit: it was read to its end (and dropped) so that the client gets the answer. */
export class BodyTooLarge {
  constructor(readonly message: string) {}
}

/**
 * The request's body as UTF-8. Past `maxBytes` the rest is drained and dropped, and a BodyTooLarge
 * comes back: a client still sending when the connection closes sees a reset, not the deny it is owed.
 */
export function readBodyWithin(request: IncomingMessage, maxBytes: number): Promise<string | BodyTooLarge> {
  return new Promise((resolve, reject) => {
    let chunks: Buffer[] | undefined = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) chunks = undefined;
      else chunks?.push(chunk);
    });
    request.on("end", () =>
      resolve(chunks === undefined ? new BodyTooLarge(`the body is larger than ${maxBytes} bytes (${size} bytes)`) : Buffer.concat(chunks).toString("utf8")),
    );
    request.on("error", reject);
  });
}

/** `readBodyWithin` for a caller that refuses an oversized body with a 413. */
export async function readBody(request: IncomingMessage, maxBytes: number): Promise<string> {
  const body = await readBodyWithin(request, maxBytes);
  if (body instanceof BodyTooLarge) throw new HttpError(413, body.message);
  return body;
}
