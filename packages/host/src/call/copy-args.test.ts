import { describe, expect, it } from "vitest";
import { ArgsShapeError, copyArgs } from "./copy-args.js";

describe("copyArgs", () => {
  it("copies plain data deeply, frozen on request, and keeps other objects by reference", () => {
    const when = new Date(0);
    const source = { a: 1, list: [{ b: "x" }], when };
    const { args } = copyArgs(source, true);
    expect(args).toEqual(source);
    expect(args.list).not.toBe(source.list);
    expect(Object.isFrozen((args.list as unknown[])[0])).toBe(true);
    expect(args.when).toBe(when);
    expect(Object.isFrozen(copyArgs(source, false).args)).toBe(false);
  });

  it("copies an object shared many times once, so a chain of doubly shared objects stays linear", () => {
    let shared: unknown = { leaf: true };
    for (let level = 0; level < 60; level++) shared = [shared, shared];
    const { args } = copyArgs({ root: shared }, true);
    const [first, second] = args.root as unknown[];
    expect(first).toBe(second);
  });

  it("rejects a sparse array too long to copy without walking it", () => {
    const huge: unknown[] = [];
    huge.length = 2 ** 30;
    expect(() => copyArgs({ huge }, true)).toThrow(ArgsShapeError);
  });

  it("counts a rough size: string lengths and a little per entry", () => {
    const { bytes } = copyArgs({ text: "x".repeat(1000), nested: { more: "y".repeat(500) } }, true);
    expect(bytes).toBeGreaterThanOrEqual(1500);
    expect(bytes).toBeLessThan(1600);
  });
});
