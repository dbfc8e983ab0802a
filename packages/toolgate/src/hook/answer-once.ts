import { writeSync } from "node:fs";
import type { HookAnswer } from "../agents/agent-protocol.js";

export interface AnswerOnce {
  /** Writes the answer and sets the exit code; only the first answer given counts. */
  answer(answer: HookAnswer): void;
  /**
   * For a crash or the watchdog's cut-off: answers (unless an answer is out already) and ends the process.
   * The cut-off runs through the inspector, between any two steps of this thread, so it can land while
   * an answer is being written: then it does nothing, and that answer is finished and ends as usual.
   */
  answerAndExit(answer: HookAnswer): void;
}

type Write = (fd: 1 | 2, text: string) => void;

/** The hook's one answer: its body on stdout, its reason on stderr, its exit code for the agent. */
export function answerOnce(
  write: Write = (fd, text) => void writeSync(fd, text),
  exit: () => void = () => process.exit(),
  setExitCode: (code: number) => void = (code) => {
    process.exitCode = code;
  },
): AnswerOnce {
  let answered = false;
  let writing = false;
  const answer = (given: HookAnswer): void => {
    if (answered) return;
    // Both flags before any call: a cut-off can land inside one (the exit code's setter is a function),
    // and one landing from here on must find this answer under way, not given and done with nothing written.
    writing = true;
    answered = true;
    // Set before the writes: whatever ends the process from here on ends it with this answer's code.
    setExitCode(given.exitCode);
    if (given.body !== undefined) write(1, `${JSON.stringify(given.body)}\n`);
    if (given.stderr !== undefined) write(2, `${given.stderr}\n`);
    writing = false;
  };
  return {
    answer,
    answerAndExit(given) {
      if (writing) return;
      answer(given);
      exit();
    },
  };
}
