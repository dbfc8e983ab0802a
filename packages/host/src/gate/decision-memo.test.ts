import { describe, expect, it } from "vitest";
import { DecisionMemo } from "./decision-memo.js";
import { freezeArgs } from "./freeze-call.js";

const verdict = (args: Record<string, unknown>) => ({ action: "allow" as const, args: freezeArgs(args) });

describe("DecisionMemo", () => {
  it("hands back a remembered verdict once, for the same id, name and arguments", () => {
    const memo = new DecisionMemo();
    const call = { id: "1", name: "read", args: { path: "a" } };
    memo.remember(call, verdict(call.args), freezeArgs(call.args));
    expect(memo.take(call)).toEqual(verdict({ path: "a" }));
    expect(memo.take(call)).toBeUndefined();
  });

  it("accepts the call with the arguments a modify produced", () => {
    const memo = new DecisionMemo();
    memo.remember({ id: "1", name: "read", args: { path: "a" } }, verdict({ path: "safe/a" }), freezeArgs({ path: "a" }));
    expect(memo.take({ id: "1", name: "read", args: { path: "safe/a" } })).toBeDefined();
  });

  it("refuses a different name or different arguments under the same id", () => {
    const memo = new DecisionMemo();
    memo.remember({ id: "1", name: "read", args: { path: "a" } }, verdict({ path: "a" }), freezeArgs({ path: "a" }));
    expect(memo.take({ id: "1", name: "write", args: { path: "a" } })).toBeUndefined();
    expect(memo.take({ id: "1", name: "read", args: { path: "/etc/passwd" } })).toBeUndefined();
  });

  it("compares against the snapshot taken at check time, not the caller's object, which may change since", () => {
    const memo = new DecisionMemo();
    const call = { id: "1", name: "terminal", args: { command: "ls" } };
    memo.remember(call, verdict(call.args), freezeArgs(call.args));
    call.args.command = "rm -rf /";
    expect(memo.take(call)).toBeUndefined();
  });

  it("never trusts arguments that are not plain data", () => {
    const memo = new DecisionMemo();
    const call = { id: "1", name: "t", args: { when: new Date(0) } };
    memo.remember(call, verdict(call.args), freezeArgs(call.args));
    expect(memo.take(call)).toBeUndefined();
  });

  it("forgets the oldest entries past its capacity", () => {
    const memo = new DecisionMemo(2);
    for (const id of ["1", "2", "3"]) memo.remember({ id, name: "t", args: {} }, verdict({}), freezeArgs({}));
    expect(memo.size).toBe(2);
    expect(memo.take({ id: "1", name: "t", args: {} })).toBeUndefined();
    expect(memo.take({ id: "3", name: "t", args: {} })).toBeDefined();
  });

  it("with the frozen copy the hooks saw, still refuses arguments that differ and accepts the same ones", () => {
    const memo = new DecisionMemo();
    const seen = Object.freeze({ path: "a", flags: Object.freeze(["r"]) });
    memo.remember({ id: "1", name: "read", args: { path: "a", flags: ["r"] } }, verdict({ path: "a", flags: ["r"] }), seen);
    expect(memo.take({ id: "1", name: "read", args: { path: "b", flags: ["r"] } })).toBeUndefined();
    expect(memo.take({ id: "1", name: "read", args: { path: "a", flags: ["r", "w"] } })).toBeUndefined();
    expect(memo.take({ id: "1", name: "read", args: { path: "a", flags: ["r"] } })).toBeDefined();
  });

  it("serialises the arguments at once when the copy holds an object that could still change", () => {
    const memo = new DecisionMemo();
    const when = new Date(0);
    const args = { when };
    // A frozen copy keeps a Date by reference: it is not data the memo may serialise later.
    memo.remember({ id: "1", name: "schedule", args }, verdict({ when: "elsewhere" }), Object.freeze({ when }));
    when.setTime(86_400_000);
    expect(memo.take({ id: "1", name: "schedule", args })).toBeUndefined();
  });
});
