import { describe, expect, it } from "vitest";
import type { PluginLogger } from "./index.js";
import { storeFailure } from "./index.js";

function recordingLog(): PluginLogger & { lines: string[] } {
  const lines: string[] = [];
  const record = (level: string) => (message: string) => void lines.push(`${level}: ${message}`);
  return { lines, debug: record("debug"), info: record("info"), warn: record("warn"), error: record("error") };
}

describe("storeFailure", () => {
  it('blocks with the plugin\'s message by default ("block"), and logs the error', () => {
    const log = recordingLog();
    expect(storeFailure(new Error("connection refused"), "block", log, "cannot check the limit")).toEqual({
      action: "block",
      message: "cannot check the limit",
    });
    expect(log.lines).toEqual(['error: the store failed, the call is blocked (onStoreError: "block"): connection refused']);
  });

  it('lets the call through uncounted with "allow", and says so', () => {
    const log = recordingLog();
    expect(storeFailure("timeout", "allow", log, "cannot check the limit")).toBeUndefined();
    expect(log.lines).toEqual(['warn: the store failed, the call is allowed uncounted (onStoreError: "allow"): timeout']);
  });
});
