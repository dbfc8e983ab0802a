import { describe, expect, it } from "vitest";
import { DecisionMemo } from "./decision-memo.js";

const verdict = (args: Record<string, unknown>) => ({ action: "allow" as const, args });

describe("DecisionMemo", () => {
  it("hands back a remembered verdict once, for the same id, name and arguments", () => {
    const memo = new DecisionMemo();
    const call = { id: "1", name: "read", args: { path: "a" } };
    memo.remember(call, verdict(call.args));
    expect(memo.take(call)).toEqual(verdict({ path: "a" }));
    expect(memo.take(call)).toBeUndefined();
  });

  it("accepts the call with the arguments a modify produced", () => {
    const memo = new DecisionMemo();
    memo.remember({ id: "1", name: "read", args: { path: "a" } }, verdict({ path: "safe/a" }));
    expect(memo.take({ id: "1", name: "read", args: { path: "safe/a" } })).toBeDefined();
  });

  it("refuses a different name or different arguments under the same id", () => {
    const memo = new DecisionMemo();
    memo.remember({ id: "1", name: "read", args: { path: "a" } }, verdict({ path: "a" }));
    expect(memo.take({ id: "1", name: "write", args: { path: "a" } })).toBeUndefined();
    expect(memo.take({ id: "1", name: "read", args: { path: "/etc/passwd" } })).toBeUndefined();
  });

  it("forgets the oldest entries past its capacity", () => {
    const memo = new DecisionMemo(2);
    for (const id of ["1", "2", "3"]) memo.remember({ id, name: "t", args: {} }, verdict({}));
    expect(memo.size).toBe(2);
    expect(memo.take({ id: "1", name: "t", args: {} })).toBeUndefined();
    expect(memo.take({ id: "3", name: "t", args: {} })).toBeDefined();
  });
});
