import type { ToolCall } from "@toolgate/plugin-sdk";
import { describe, expect, it } from "vitest";
import { DecisionMemo } from "./decision-memo.js";
import { freezeArgs } from "../call/freeze-call.js";

const verdict = (args: Record<string, unknown>) => ({ action: "allow" as const, args: freezeArgs(args) });
/** The host's snapshot of a call: what the gate hands the memo. */
const snapshot = (call: ToolCall): ToolCall => ({ ...call, args: freezeArgs(call.args) });

describe("DecisionMemo", () => {
  it("hands back a remembered verdict once, for the same id, name and arguments", () => {
    const memo = new DecisionMemo();
    const call = snapshot({ id: "1", name: "read", args: { path: "a" } });
    memo.remember(call, verdict(call.args));
    expect(memo.take(snapshot(call))).toEqual(verdict({ path: "a" }));
    expect(memo.take(snapshot(call))).toBeUndefined();
  });

  it("accepts the call with the arguments a modify produced", () => {
    const memo = new DecisionMemo();
    memo.remember(snapshot({ id: "1", name: "read", args: { path: "a" } }), verdict({ path: "safe/a" }));
    expect(memo.take(snapshot({ id: "1", name: "read", args: { path: "safe/a" } }))).toBeDefined();
  });

  it("refuses a different name, kind or arguments under the same id", () => {
    const memo = new DecisionMemo();
    memo.remember(snapshot({ id: "1", name: "read", args: { path: "a" } }), verdict({ path: "a" }));
    expect(memo.take(snapshot({ id: "1", name: "write", args: { path: "a" } }))).toBeUndefined();
    expect(memo.take(snapshot({ id: "1", name: "read", args: { path: "/etc/passwd" } }))).toBeUndefined();
    expect(memo.take(snapshot({ id: "1", name: "read", kind: "shell", args: { path: "a" } }))).toBeUndefined();
    expect(memo.take(snapshot({ id: "1", name: "read", args: { path: "a" } }))).toBeDefined();
  });

  it("never trusts arguments that are not plain data", () => {
    const memo = new DecisionMemo();
    const call = snapshot({ id: "1", name: "t", args: { when: new Date(0) } });
    memo.remember(call, verdict(call.args));
    expect(memo.take(call)).toBeUndefined();
  });

  it("forgets the oldest entries past its capacity", () => {
    const memo = new DecisionMemo({ entries: 2 });
    for (const id of ["1", "2", "3"]) memo.remember(snapshot({ id, name: "t", args: {} }), verdict({}));
    expect(memo.size).toBe(2);
    expect(memo.take(snapshot({ id: "1", name: "t", args: {} }))).toBeUndefined();
    expect(memo.take(snapshot({ id: "3", name: "t", args: {} }))).toBeDefined();
  });

  it("forgets the oldest entries past its byte budget", () => {
    const memo = new DecisionMemo({ bytes: 1000 });
    for (const id of ["1", "2", "3"]) memo.remember(snapshot({ id, name: "t", args: {} }), verdict({}), 400);
    expect(memo.size).toBe(2);
    expect(memo.bytes).toBe(800);
    expect(memo.take(snapshot({ id: "1", name: "t", args: {} }))).toBeUndefined();
    expect(memo.take(snapshot({ id: "2", name: "t", args: {} }))).toBeDefined();
    expect(memo.bytes).toBe(400);
  });

  it("forgets entries older than its time to live", async () => {
    const memo = new DecisionMemo({ ttlMs: 5 });
    memo.remember(snapshot({ id: "1", name: "t", args: {} }), verdict({}));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(memo.take(snapshot({ id: "1", name: "t", args: {} }))).toBeUndefined();
    expect(memo.size).toBe(0);
  });

  it("an id taken or remembered again holds only its latest verdict, counted once", () => {
    const memo = new DecisionMemo();
    const call = snapshot({ id: "1", name: "t", args: {} });
    memo.remember(call, verdict({}), 100);
    memo.remember(call, { action: "block", message: "second thoughts", args: call.args }, 300);
    expect([memo.size, memo.bytes]).toEqual([1, 300]);
    expect(memo.take(call)).toMatchObject({ action: "block" });
    expect([memo.size, memo.bytes]).toEqual([0, 0]);
    memo.remember(call, verdict({}), 50);
    expect([memo.size, memo.bytes]).toEqual([1, 50]);
    expect(memo.take(call)).toMatchObject({ action: "allow" });
    expect(memo.take(call)).toBeUndefined();
  });

  it("taken verdicts release what they held, over many distinct ids", () => {
    const memo = new DecisionMemo({ entries: 10 });
    for (let index = 0; index < 1000; index++) {
      const call = snapshot({ id: String(index), name: "t", args: { index } });
      memo.remember(call, verdict(call.args), 10);
      if (index % 2 === 0) expect(memo.take(call)).toBeDefined();
    }
    expect([memo.size, memo.bytes]).toEqual([10, 100]);
    expect(memo.take(snapshot({ id: "999", name: "t", args: { index: 999 } }))).toBeDefined();
    expect(memo.take(snapshot({ id: "979", name: "t", args: { index: 979 } }))).toBeUndefined();
  });

  it("clear() forgets everything", () => {
    const memo = new DecisionMemo();
    memo.remember(snapshot({ id: "1", name: "t", args: {} }), verdict({}), 100);
    memo.clear();
    expect(memo.size).toBe(0);
    expect(memo.bytes).toBe(0);
    expect(memo.take(snapshot({ id: "1", name: "t", args: {} }))).toBeUndefined();
  });

  it("with the frozen copy the hooks saw, still refuses arguments that differ and accepts the same ones", () => {
    const memo = new DecisionMemo();
    memo.remember(snapshot({ id: "1", name: "read", args: { path: "a", flags: ["r"] } }), verdict({ path: "a", flags: ["r"] }));
    expect(memo.take(snapshot({ id: "1", name: "read", args: { path: "b", flags: ["r"] } }))).toBeUndefined();
    expect(memo.take(snapshot({ id: "1", name: "read", args: { path: "a", flags: ["r", "w"] } }))).toBeUndefined();
    expect(memo.take(snapshot({ id: "1", name: "read", args: { path: "a", flags: ["r"] } }))).toBeDefined();
  });
});
