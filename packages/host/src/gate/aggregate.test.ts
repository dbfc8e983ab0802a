import { describe, expect, it } from "vitest";
import { addDecision, createAggregate, mergeArgs, toVerdict } from "./aggregate.js";

describe("mergeArgs", () => {
  it("keeps keys the patch does not name, overrides the ones it does, removes undefined ones", () => {
    expect(mergeArgs({ a: 1, b: 2, c: 3 }, { b: 20, c: undefined, d: 4 })).toEqual({ a: 1, b: 20, d: 4 });
  });

  it("does not change its inputs", () => {
    const current = { a: 1 };
    mergeArgs(current, { a: 2 });
    expect(current).toEqual({ a: 1 });
  });
});

describe("aggregate", () => {
  it("no opinions: allow with the original arguments", () => {
    expect(toVerdict(createAggregate({ x: 1 }))).toEqual({ action: "allow", args: { x: 1 } });
  });

  it("block > ask > allow, first message of each kind", () => {
    const aggregate = createAggregate({});
    addDecision(aggregate, { action: "allow", reason: "ok" }, "p1", { kind: "plugin", name: "p1" });
    addDecision(aggregate, { action: "ask", message: "ask 1" }, "p2", { kind: "plugin", name: "p2" });
    addDecision(aggregate, { action: "ask", message: "ask 2" }, "p3", { kind: "plugin", name: "p3" });
    expect(toVerdict(aggregate)).toMatchObject({ action: "ask", message: "ask 1", plugin: "p2" });
    addDecision(aggregate, { action: "block", message: "block 1" }, "p4", { kind: "plugin", name: "p4" });
    addDecision(aggregate, { action: "block", message: "block 2" }, "p5", { kind: "plugin", name: "p5" });
    expect(toVerdict(aggregate)).toMatchObject({ action: "block", message: "block 1", plugin: "p4", source: { kind: "plugin", name: "p4" } });
  });

  it("modify accumulates in order and survives a later block's verdict args", () => {
    const aggregate = createAggregate({ path: "a", mode: "x" });
    addDecision(aggregate, { action: "modify", args: { path: "b" } }, "p1", { kind: "plugin", name: "p1" });
    addDecision(aggregate, { action: "modify", args: { path: "c", extra: true } }, "p2", { kind: "plugin", name: "p2" });
    expect(toVerdict(aggregate).args).toEqual({ path: "c", mode: "x", extra: true });
  });
});
