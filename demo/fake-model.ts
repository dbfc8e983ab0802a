import type { OpenAIToolMessage } from "@toolgate/host";

// The demo speaks OpenAI Chat Completions, the most common wire format for tool calling.

/** One tool call in an assistant message. */
export interface AssistantToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

export interface AssistantMessage {
  role: "assistant";
  content: string | null;
  tool_calls?: AssistantToolCall[];
}

export type ChatMessage = { role: "system"; content: string } | { role: "user"; content: string } | AssistantMessage | OpenAIToolMessage;

/** What the demo needs from a model: the conversation so far in, the next assistant message out. */
export interface ChatModel {
  respond(messages: readonly ChatMessage[]): AssistantMessage;
}

/** A tool call the model means to make. */
export interface Intent {
  name: string;
  args: Record<string, unknown>;
}

/** A call the gate refused, as the model understood it from the tool message's text. */
export interface Refusal {
  intent: Intent;
  plugin: string;
  reason: string;
  kind: "rate-limited" | "read-only" | "refused";
}

/** What the model has learned in this conversation, only ever from the tool messages it got back. */
export interface Memory {
  /** File contents it has read or written. */
  readonly files: Map<string, string>;
  /** Every call that ran, with the content it returned. */
  readonly results: { intent: Intent; content: string }[];
  readonly refusals: Refusal[];
  /** Calls it dropped from its plan because of a refusal. */
  readonly dropped: Intent[];
  /** Changes it was not allowed to make, described for the user instead. */
  readonly proposals: string[];
}

/** One step of the model's plan: something to say, and the tool calls to make (none ends the turn). */
export interface Step {
  say(memory: Memory): string;
  calls?(memory: Memory): Intent[];
  /** A narrower way to the same goal, taken when a policy refuses this step outright. */
  narrower?: Step;
}

interface Feedback {
  /** The calls the latest tool messages answer. */
  answered: Intent[];
  refusals: Refusal[];
  /** The plan step those calls came from. */
  step: Step | undefined;
}

/**
 * A deterministic stand-in for an LLM. It follows a plan, but what it does after each turn depends on
 * the tool messages it reads back: a refusal makes it narrow the step, a rate limit makes it stop
 * calling that tool, a read-only workspace makes it describe the change instead of making it.
 */
export function createFakeModel(plan: readonly Step[]): ChatModel {
  const steps = [...plan];
  const memory: Memory = { files: new Map(), results: [], refusals: [], dropped: [], proposals: [] };
  const issued = new Map<string, { intent: Intent; step: Step }>();
  let callNumber = 0;

  /** What the tool messages since its last turn say: the calls they answer, and which were refused. */
  function readFeedback(messages: readonly ChatMessage[]): Feedback {
    const feedback: Feedback = { answered: [], refusals: [], step: undefined };
    for (const message of toolMessagesOfLastTurn(messages)) {
      const made = issued.get(message.tool_call_id);
      if (!made) continue;
      feedback.step = made.step;
      feedback.answered.push(made.intent);
      const refusal = readRefusal(message.content, made.intent);
      if (refusal) feedback.refusals.push(refusal);
      else learn(memory, made.intent, message.content);
    }
    memory.refusals.push(...feedback.refusals);
    return feedback;
  }

  /** Changes the rest of the plan in answer to this turn's refusals; returns what the model says about them. */
  function adapt({ answered, refusals, step: refusedStep }: Feedback): string[] {
    const said: string[] = [];
    const readOnly = refusals.filter((refusal) => refusal.kind === "read-only");
    if (readOnly.length > 0) {
      const [first] = readOnly;
      said.push(`${first!.plugin} blocked my ${first!.intent.name}:`, `> ${first!.reason}`, "I won't try to work around it.");
      for (const refusal of readOnly) memory.proposals.push(describeChange(refusal.intent, memory));
      dropStepsUsing(new Set(readOnly.map((refusal) => refusal.intent.name)));
    }
    const limited = refusals.filter((refusal) => refusal.kind === "rate-limited");
    if (limited.length > 0) {
      const tools = new Set(limited.map((refusal) => refusal.intent.name));
      const attempted = answered.filter((intent) => tools.has(intent.name)).length;
      const retry = /retry (in [^.;]+)/i.exec(limited[0]!.reason)?.[1];
      const hint = retry === undefined ? `: "${limited[0]!.reason}"` : `; it says to retry ${retry}`;
      said.push(
        `${limited[0]!.plugin} stopped ${limited.length} of my ${attempted} ${[...tools].join(", ")} calls${hint}. ` +
          `I won't retry in a loop: I'll stop ${[...tools].map(gerund).join(" and ")} and summarise what I have.`,
      );
      dropStepsUsing(tools);
    }
    const refused = refusals.filter((refusal) => refusal.kind === "refused");
    if (refused.length > 0) {
      if (refusedStep?.narrower) steps.unshift(refusedStep.narrower);
      else for (const refusal of refused) said.push(`${refusal.plugin} refused my ${refusal.intent.name}:`, `> ${refusal.reason}`, "I'll skip that step.");
    }
    return said;
  }

  function dropStepsUsing(tools: ReadonlySet<string>): void {
    for (let index = steps.length - 1; index >= 0; index--) {
      const intents = steps[index]!.calls?.(memory) ?? [];
      if (intents.length > 0 && intents.every((intent) => tools.has(intent.name))) {
        memory.dropped.unshift(...intents);
        steps.splice(index, 1);
      }
    }
  }

  return {
    respond(messages) {
      const said = adapt(readFeedback(messages));
      const step = steps.shift();
      if (!step) return { role: "assistant", content: [...said, "That's everything."].join("\n") };
      said.push(step.say(memory));
      const intents = step.calls?.(memory) ?? [];
      const message: AssistantMessage = { role: "assistant", content: said.join("\n") };
      if (intents.length > 0) {
        message.tool_calls = intents.map((intent) => {
          const id = `call_${++callNumber}`;
          issued.set(id, { intent, step });
          return { id, type: "function", function: { name: intent.name, arguments: JSON.stringify(intent.args) } };
        });
      }
      return message;
    },
  };
}

function toolMessagesOfLastTurn(messages: readonly ChatMessage[]): OpenAIToolMessage[] {
  const last: OpenAIToolMessage[] = [];
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role !== "tool") break;
    last.unshift(message);
  }
  return last;
}

/** "search" → "searching"; other tools → "calling <tool>". */
function gerund(tool: string): string {
  return tool === "search" ? "searching" : `calling ${tool}`;
}

/** Reads a tool message the way a model would: by its words. */
function readRefusal(content: string, intent: Intent): Refusal | undefined {
  if (!/\bblocked\b/i.test(content)) return undefined;
  // "plugin "x"", or for a rule or a configured hook "permission rule "…"" / "command hook "…"".
  const by = /blocked by (plugin|permission rule|\w+ hook) "([^"]+)"/.exec(content);
  const plugin = by === null ? "the tool gate" : by[1] === "plugin" ? by[2]! : `${by[1]} "${by[2]}"`;
  const reason = content.slice(content.indexOf(": ") + 2).trim() || content;
  const kind = /read[- ]only/i.test(content) ? "read-only" : /rate.?limit|retry|try again|too many/i.test(content) ? "rate-limited" : "refused";
  return { intent, plugin, reason, kind };
}

function learn(memory: Memory, intent: Intent, content: string): void {
  memory.results.push({ intent, content });
  const path = typeof intent.args.path === "string" ? intent.args.path : undefined;
  if (path === undefined) return;
  if (intent.name === "read_file") memory.files.set(path, content);
  if (intent.name === "write_file" && typeof intent.args.content === "string") memory.files.set(path, intent.args.content);
}

/** A refused write, as a small diff the user can apply. */
function describeChange(intent: Intent, memory: Memory): string {
  const path = String(intent.args.path ?? intent.args.command ?? intent.name);
  if (typeof intent.args.content !== "string") return `${intent.name} ${JSON.stringify(intent.args)}`;
  const before = (memory.files.get(path) ?? "").split("\n");
  const after = intent.args.content.split("\n");
  const removed = before.filter((line) => line !== "" && !after.includes(line)).map((line) => `- ${line}`);
  const added = after.filter((line) => line !== "" && !before.includes(line)).map((line) => `+ ${line}`);
  return [`${path}:`, ...removed, ...added].join("\n");
}
