import { afterEach, describe, expect, it, vi } from "vitest";
import type { HookAnswer } from "../agents/agent-protocol.js";
import { type AnswerOnce, answerOnce } from "./answer-once.js";

const deny: HookAnswer = { body: { decision: "deny", reason: "no" }, stderr: "no", exitCode: 2 };
const cutOff: HookAnswer = { body: { decision: "deny", reason: "held the thread" }, stderr: "held the thread", exitCode: 2 };
const allow: HookAnswer = { body: {}, exitCode: 0 };

const exitCodeBefore = process.exitCode;
afterEach(() => {
  process.exitCode = exitCodeBefore;
});

/** The writes as the agent would read them, each with the exit code in force when it happened. */
function recorder(onWrite?: (fd: 1 | 2) => void) {
  const writes: { fd: 1 | 2; text: string; exitCode: typeof process.exitCode }[] = [];
  const exit = vi.fn();
  const write = (fd: 1 | 2, text: string) => {
    writes.push({ fd, text, exitCode: process.exitCode });
    onWrite?.(fd);
  };
  return { writes, exit, write };
}

describe("answerOnce", () => {
  it("writes the body, then the reason, with the exit code already set", () => {
    const { writes, exit, write } = recorder();
    answerOnce(write, exit).answer(deny);
    expect(writes).toEqual([
      { fd: 1, text: '{"decision":"deny","reason":"no"}\n', exitCode: 2 },
      { fd: 2, text: "no\n", exitCode: 2 },
    ]);
    expect(process.exitCode).toBe(2);
    expect(exit).not.toHaveBeenCalled();
  });

  it("counts the first answer only", () => {
    const { writes, exit, write } = recorder();
    const answers = answerOnce(write, exit);
    answers.answer(allow);
    answers.answer(deny);
    expect(writes.map((entry) => entry.text)).toEqual(["{}\n"]);
    expect(process.exitCode).toBe(0);
  });

  it("a crash before any answer denies and ends the process", () => {
    const { writes, exit, write } = recorder();
    answerOnce(write, exit).answerAndExit(cutOff);
    expect(writes.map((entry) => entry.fd)).toEqual([1, 2]);
    expect(exit).toHaveBeenCalledTimes(1);
    expect(process.exitCode).toBe(2);
  });

  it("a crash after the answer ends the process with that answer's exit code", () => {
    const { writes, exit, write } = recorder();
    const answers = answerOnce(write, exit);
    answers.answer(allow);
    answers.answerAndExit(cutOff);
    expect(writes).toHaveLength(1);
    expect(exit).toHaveBeenCalledTimes(1);
    expect(process.exitCode).toBe(0);
  });

  it("a cut-off landing between the answer's two writes lets that answer finish: no early exit, no exit code 0 for a deny", () => {
    let answers: AnswerOnce | undefined;
    const { writes, exit, write } = recorder((fd) => {
      if (fd === 1) answers!.answerAndExit(cutOff);
    });
    answers = answerOnce(write, exit);
    answers.answer(deny);
    expect(exit).not.toHaveBeenCalled();
    expect(writes.map((entry) => entry.text)).toEqual(['{"decision":"deny","reason":"no"}\n', "no\n"]);
    expect(process.exitCode).toBe(2);
  });

  it("a cut-off landing while the exit code is set, before any write, lets that answer finish (it used to exit with nothing written)", () => {
    let answers: AnswerOnce | undefined;
    let cut = false;
    const { writes, exit, write } = recorder();
    answers = answerOnce(write, exit, (code) => {
      process.exitCode = code;
      if (cut) return;
      cut = true;
      answers!.answerAndExit(cutOff);
    });
    answers.answer(deny);
    expect(exit).not.toHaveBeenCalled();
    expect(writes.map((entry) => entry.text)).toEqual(['{"decision":"deny","reason":"no"}\n', "no\n"]);
    expect(process.exitCode).toBe(2);
  });
});
