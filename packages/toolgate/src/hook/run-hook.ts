import { fstatSync, readFileSync } from "node:fs";
import { Argument, type Command } from "commander";
import type { AgentName, HookAnswer, HookRequest } from "../agents/agent-protocol.js";
import { agentNames } from "../agents/agent-protocol.js";

/** How long the hook may take before it denies on its own: agents treat a hook that times out as no opinion. */
const defaultDeadlineMs = 20_000;

export function registerHookCommand(program: Command): void {
  program
    .command("hook")
    .description("answer one coding-agent hook call: the agent's hook JSON on stdin, its answer on stdout (set up by `toolgate init`)")
    .addArgument(new Argument("<agent>", "the agent whose hook protocol to speak").choices(agentNames))
    .addHelpText(
      "after",
      "\nRuns the plugins of the input's cwd. Fails closed: a plugin that does not load, a bad config, unreadable\ninput or a crash answers deny with the cause. Nothing but the answer is printed on stdout.",
    )
    .action(async (agent: AgentName) => {
      await runHook(agent);
    });
}

/**
 * One hook call. Only this function writes to the real stdout, once; everything else that would print
 * there (console.log, plugin output, the host's logger) goes to stderr.
 *
 * A project with code of its own (plugins, a config) runs under a watchdog (see hook-watchdog.ts):
 * plugin code that holds this thread is cut off at the deadline and the call denied. A deny ends with
 * exit code 2 where the agent blocks on it (see the agents' protocols), so that bytes a plugin wrote to
 * file descriptor 1 cannot turn it into an allow.
 */
async function runHook(agent: AgentName): Promise<void> {
  const { agentProtocols } = await import("../agents/agents.js");
  const protocol = agentProtocols[agent];
  let event: HookRequest["event"] | undefined;
  const { answerOnce } = await import("./answer-once.js");
  const answers = answerOnce();
  const finish = (answer: HookAnswer): void => {
    answers.answer(answer);
    // A plugin's leftover timer or socket must not keep the agent waiting once it has its answer.
    setTimeout(() => process.exit(), 500).unref();
  };
  keepStdoutForTheAnswer();
  // Whatever ends the process before a decision (a crash, an empty event loop, a hang) still denies.
  process.on("exit", () => finish(protocol.denyForFailure("toolgate exited before deciding", event)));
  const crash = (error: unknown) => answers.answerAndExit(protocol.denyForFailure(describe(error), event));
  process.on("uncaughtException", crash);
  process.on("unhandledRejection", crash);
  // A plugin that signals this process (or an agent that stops it) ends it with a deny, not a signal's
  // exit status, which agents read as "no opinion". SIGKILL and abort() cannot be caught: the installed
  // command's fallback (`… || exit 2`) denies for those.
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) process.on(signal, () => crash(new Error(`toolgate was stopped by ${signal}`)));
  const wholeCall = { at: Date.now() + deadlineMs(), reason: `no decision within ${deadlineMs()} ms (TOOLGATE_HOOK_TIMEOUT_MS)` };
  const deadline = setTimeout(() => crash(new Error(wholeCall.reason)), deadlineMs());

  const input = await readStdin().catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
  if (input instanceof Error) return done(finish, protocol.denyForFailure(`cannot read the hook input: ${describe(input)}`, undefined), deadline);
  const read = (await import("./answer-hook.js")).readHookRequest(protocol, input);
  if ("answer" in read) return done(finish, read.answer, deadline);
  const { request } = read;
  event = request.event;
  const [{ resolveProjectDir }, { decideHookRequest, runsProjectCode }] = await Promise.all([import("./project-dir.js"), import("./hook-decision.js")]);
  const projectDir = resolveProjectDir(protocol, request.cwd);
  const deny = (reason: string) => protocol.denyForFailure(reason, event);
  const watchdog = runsProjectCode(projectDir)
    ? (await import("./hook-watchdog.js")).startHookWatchdog((reason) => crash(new Error(reason)), deny, wholeCall)
    : undefined;
  const answer = await decideHookRequest(protocol, request, projectDir, (hookTimeoutMs) => watchdog?.setHookTimeout(hookTimeoutMs)).catch((error: unknown) =>
    deny(describe(error)),
  );
  done(finish, answer, deadline);
}

function done(finish: (answer: HookAnswer) => void, answer: HookAnswer, deadline: NodeJS.Timeout): void {
  finish(answer);
  clearTimeout(deadline);
}

/**
 * Everything written to stdout from here on goes to stderr; the answer is written with `writeSync(1)`.
 * `process.stdout` itself becomes stderr rather than patching its `write`: reading `process.stdout` would
 * build Node's stream for it, a few ms of every hook process that never uses it.
 */
function keepStdoutForTheAnswer(): void {
  const toStderr = (...args: unknown[]) => console.error(...args);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  console.dir = (item: unknown) => console.error(item);
  Object.defineProperty(process, "stdout", { configurable: true, enumerable: true, get: () => process.stderr });
}

/**
 * The hook input. A regular file is read at once (it ends); anything else (the pipe or socket an agent
 * gives) through the stream: a synchronous read of a stdin that never closes would hold this thread, and
 * the deadline's timer with it, for ever, and a read on libuv's thread pool would hold `process.exit`.
 */
function readStdin(): Promise<string> {
  try {
    if (fstatSync(0).isFile()) return Promise.resolve(readFileSync(0, "utf8"));
  } catch (error) {
    return Promise.reject(error);
  }
  return new Promise((resolve, reject) => {
    let text = "";
    process.stdin.setEncoding("utf8");
    process.stdin.on("data", (chunk: string) => (text += chunk));
    process.stdin.on("end", () => resolve(text));
    process.stdin.on("error", reject);
  });
}

function deadlineMs(): number {
  const configured = Number(process.env.TOOLGATE_HOOK_TIMEOUT_MS);
  return Number.isFinite(configured) && configured > 0 ? configured : defaultDeadlineMs;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message.split("\n", 1)[0] || error.name : String(error);
}
