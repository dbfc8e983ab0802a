import type { Computer, ComputerTool, RunContext } from "@openai/agents";
import type { ToolCall } from "@toolgate/host";
import { type CallGate, generatedCallId } from "./gate.js";

type ComputerActionMethod = Exclude<keyof Computer, "environment" | "dimensions" | "screenshot" | "initRun">;

/** Each action method and the argument names plugins see for it (`args.type` is the action). */
const actions: Record<ComputerActionMethod, { type: string; params: string[] }> = {
  click: { type: "click", params: ["x", "y", "button"] },
  doubleClick: { type: "double_click", params: ["x", "y"] },
  scroll: { type: "scroll", params: ["x", "y", "scroll_x", "scroll_y"] },
  type: { type: "type", params: ["text"] },
  wait: { type: "wait", params: [] },
  move: { type: "move", params: ["x", "y"] },
  keypress: { type: "keypress", params: ["keys"] },
  drag: { type: "drag", params: ["path"] },
};

/**
 * A computer tool whose actions pass the gate where they run: each action method of the computer is
 * checked (`kind: "computer"`, `args.type` the action) and a blocked one is never performed. The SDK
 * answers a computer call with a screenshot, so the block reaches the model as a failed action, not as
 * text. An `ask` goes to the host's `onAsk`; without one it is blocked (the SDK has no approval step
 * that runs per computer action).
 */
export function gateComputerTool<Tool extends ComputerTool>(tool: Tool, gate: CallGate): Tool {
  const wrap = (computer: Computer) => gateComputer(computer, tool.name, gate);
  const config = tool.computer as unknown;
  if (typeof config === "function") {
    const create = config as (args: { runContext: RunContext }) => Computer | Promise<Computer>;
    return { ...tool, computer: async (args: { runContext: RunContext }) => wrap(await create(args)) } as Tool;
  }
  if (isProvider(config))
    return { ...tool, computer: { ...config, create: async (args: { runContext: RunContext }) => wrap(await config.create(args)) } } as Tool;
  return { ...tool, computer: wrap(config as Computer) } as Tool;
}

function isProvider(value: unknown): value is { create: (args: { runContext: RunContext }) => Computer | Promise<Computer> } {
  const candidate = value as { create?: unknown; screenshot?: unknown };
  return typeof candidate.create === "function" && typeof candidate.screenshot !== "function";
}

function gateComputer(computer: Computer, name: string, gate: CallGate): Computer {
  const gated = Object.create(computer) as Record<string, unknown>;
  for (const [method, { type, params }] of Object.entries(actions)) {
    const original = (computer as unknown as Record<string, (...args: unknown[]) => unknown>)[method];
    if (typeof original !== "function") continue;
    gated[method] = async (...args: unknown[]) => {
      const call: ToolCall = { id: generatedCallId("computer"), name, kind: "computer", args: argsOf(type, params, args) };
      const verdict = await gate.check(call);
      if (verdict.action !== "allow") throw new Error(await gate.blockedText(call, { ...verdict, action: "block" }));
      const finalArgs = params.map((param, index) => (param in verdict.args ? verdict.args[param] : args[index]));
      return original.apply(computer, [...finalArgs, ...args.slice(params.length)]);
    };
  }
  return gated as unknown as Computer;
}

function argsOf(type: string, params: string[], values: unknown[]): Record<string, unknown> {
  const args: Record<string, unknown> = { type };
  params.forEach((param, index) => {
    if (values[index] !== undefined) args[param] = values[index];
  });
  return args;
}
