import { describe, expect, it } from "vitest";
import { msText, roundMs } from "./round-ms.js";

describe("msText", () => {
  it("is String(roundMs(ms)) for every kind of time a record holds", () => {
    const samples = [
      0,
      -0,
      0.0004,
      0.0005,
      0.001,
      0.01,
      0.1,
      0.12,
      0.123,
      0.1234,
      1,
      1.5,
      1.05,
      1.005,
      10.2,
      999.9995,
      1000,
      12_345.678,
      2 ** 40 / 7,
      -0.0004,
      -0.5,
      -3.25,
      Number.NaN,
      1e300,
    ];
    for (let index = 0; index < 20_000; index++) samples.push(Math.random() * (index % 3 === 0 ? 0.02 : index % 3 === 1 ? 50 : 1e7));
    for (const ms of samples) expect(msText(ms), String(ms)).toBe(String(roundMs(ms)));
  });
});
