import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";

type Step = (messages: BaseMessage[]) => AIMessage;

/**
 * A chat model that answers from a script: each turn sees every message sent so far, so a step can
 * read what the tools answered. `bindTools` keeps the script (the agent binds its tools each turn).
 */
export class ScriptedChatModel extends BaseChatModel {
  readonly seen: BaseMessage[][] = [];

  constructor(
    private readonly script: Step[],
    private readonly turn = { index: 0 },
  ) {
    super({});
  }

  _llmType(): string {
    return "scripted";
  }

  override bindTools(): ScriptedChatModel {
    return new ScriptedChatModel(this.script, this.turn);
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    this.seen.push(messages);
    const step = this.script[this.turn.index++];
    if (!step) throw new Error(`scripted chat model: no turn ${this.turn.index} in the script`);
    const message = step(messages);
    return { generations: [{ message, text: typeof message.content === "string" ? message.content : "" }] };
  }
}

export function callTool(id: string | undefined, name: string, args: Record<string, unknown>): AIMessage {
  return new AIMessage({ content: "", tool_calls: [id === undefined ? { name, args, type: "tool_call" } : { id, name, args, type: "tool_call" }] });
}

export function reply(text: string): AIMessage {
  return new AIMessage(text);
}
