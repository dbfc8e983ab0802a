import { type AgentInputItem, type AgentOutputItem, type Model, type ModelRequest, type ModelResponse, type StreamEvent, Usage } from "@openai/agents";

/**
 * A model that answers from a script: each turn sees what the model was sent so far and returns the
 * next output items. It records every request, so a test can read what the model read.
 */
export class ScriptedModel implements Model {
  readonly requests: ModelRequest[] = [];
  #turn = 0;

  constructor(private readonly script: ((input: AgentInputItem[]) => AgentOutputItem[])[]) {}

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request);
    const step = this.script[this.#turn++];
    if (!step) throw new Error(`scripted model: no turn ${this.#turn} in the script`);
    const input = typeof request.input === "string" ? [] : request.input;
    return { usage: new Usage(), output: step(input), responseId: `resp_${this.#turn}` };
  }

  /** The same script, streamed as one `response_done` event per turn. */
  async *getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
    const { output, responseId } = await this.getResponse(request);
    yield { type: "response_done", response: { id: responseId ?? "resp", usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 }, output } } as StreamEvent;
  }
}

export function say(text: string): AgentOutputItem {
  return { type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text }] } as AgentOutputItem;
}

const outputTypes = new Set(["function_call_result", "shell_call_output", "apply_patch_call_output", "computer_call_result"]);

/** The tool output item the model was sent for a call id, as JSON, whatever the tool kind. */
export function outputFor(input: AgentInputItem[], callId: string): string | undefined {
  const item = input.find((entry) => outputTypes.has(String(entry.type)) && (entry as { callId?: string }).callId === callId);
  return item === undefined ? undefined : JSON.stringify(item);
}
