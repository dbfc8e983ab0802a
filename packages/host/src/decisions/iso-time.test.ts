import { describe, expect, it } from "vitest";
import { isoTime } from "./iso-time.js";

describe("isoTime", () => {
  it("is Date#toISOString for any instant from 1970 to 2096, fractions of a millisecond dropped", () => {
    const instants = [0, 951_782_400_000, 951_868_800_000, 4_102_444_799_999, 1_795_744_663_887.7];
    for (let index = 0; index < 20_000; index++) instants.push(Math.random() * 4e12);
    for (const instant of instants) expect(isoTime(instant)).toBe(new Date(Math.floor(instant)).toISOString());
  });

  it("stays right across midnight, walking forwards and back within days (the date part is kept per day)", () => {
    const midnight = 1_795_737_600_000;
    const walk = [midnight - 1, midnight, midnight + 1, midnight - 1, midnight + 86_399_999, midnight + 86_400_000, midnight + 5, midnight - 86_400_001];
    for (let step = 0; step < 400; step++) walk.push(midnight + step * 777_777);
    for (const instant of walk) expect(isoTime(instant)).toBe(new Date(instant).toISOString());
  });
});
