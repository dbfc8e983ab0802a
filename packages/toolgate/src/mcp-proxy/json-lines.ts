import type { Readable } from "node:stream";

/**
 * Calls `onLine` with each newline-delimited line read from `input` (MCP's stdio framing), without the
 * newline or a trailing carriage return. Blank lines are skipped. Decoded as UTF-8 across chunk
 * boundaries; nothing is parsed here.
 */
export function readJsonLines(input: Readable, onLine: (line: string) => void): void {
  let partial = "";
  input.setEncoding("utf8");
  input.on("data", (chunk: string) => {
    let start = 0;
    let newline = chunk.indexOf("\n");
    if (newline === -1) {
      partial += chunk;
      return;
    }
    let text = partial + chunk;
    newline += partial.length;
    partial = "";
    while (newline !== -1) {
      const end = newline > start && text.charCodeAt(newline - 1) === 13 ? newline - 1 : newline;
      if (end > start) onLine(text.slice(start, end));
      start = newline + 1;
      newline = text.indexOf("\n", start);
    }
    partial = text.slice(start);
    text = "";
  });
}
