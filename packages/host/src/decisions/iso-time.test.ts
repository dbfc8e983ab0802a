import { describe, expect, it } from "vitest";
import { isoTime } from "./iso-time.js";

describe("isoTime", () => {
  it("is Date#toISOString for any instant from 1970 to 2096, fractions of a millisecond dropped", () => {
    const instants = [0, 951_782_400_000, 951_868_800_000, 4_102_444_799_999, 1_795_744_663_887.7];
    for (let index = 0; index < 20_000; index++) instants.push(Math.random() * 4e12);
    for (const instant of instants) expect(isoTime(instant)).toBe(new Date(Math.floor(instant)).toISOString());
  });
});
