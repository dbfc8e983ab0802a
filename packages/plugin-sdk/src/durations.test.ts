import { describe, expect, it } from "vitest";
import { formatDuration, formatRetry } from "./durations.js";

describe("durations as people read them", () => {
  it("formats windows and retry times the way people say them", () => {
    expect([500, 1500, 60_000, 90_000, 300_000, 3_600_000].map(formatDuration)).toEqual(["500ms", "1.5s", "60s", "90s", "5min", "1h"]);
    expect([1, 999, 1000, 1001, 42_000].map(formatRetry)).toEqual(["1s", "1s", "1s", "2s", "42s"]);
    const minute = 60_000;
    const hour = 60 * minute;
    expect([119_000, 120_000, 121_000, 59 * minute, hour, 90 * minute, 2 * hour, 24 * hour, 24 * hour - 1000, 72 * hour].map(formatRetry)).toEqual([
      "119s",
      "2 min",
      "3 min",
      "59 min",
      "1 h",
      "1 h 30 min",
      "2 h",
      "24 h",
      "24 h",
      "3 days",
    ]);
  });
});
