import type { ToolResult } from "@toolgate/plugin-sdk";
import { describe, expect, it } from "vitest";
import { toolMessageFormats, toToolMessage } from "./to-tool-message.js";

const blocked: ToolResult = { callId: "call_1", name: "terminal", status: "blocked", content: 'Tool call blocked by plugin "guard": no', blockedBy: "guard" };
const ok: ToolResult = { callId: "call_2", name: "read", status: "ok", content: "hello" };
const okData: ToolResult = { callId: "call_3", name: "stat", status: "ok", content: '{"size":1}', data: { size: 1 } };
const failed: ToolResult = { callId: "call_4", name: "read", status: "error", content: 'Tool "read" failed: ENOENT' };

describe("toToolMessage", () => {
  it("openai: a tool role message", () => {
    expect(toToolMessage(blocked, "openai")).toEqual({ role: "tool", tool_call_id: "call_1", content: blocked.content });
  });

  it("responses: a function_call_output item", () => {
    expect(toToolMessage(ok, "responses")).toEqual({ type: "function_call_output", call_id: "call_2", output: "hello" });
  });

  it("anthropic: a tool_result block, is_error for blocked and failed calls", () => {
    expect(toToolMessage(blocked, "anthropic")).toEqual({ type: "tool_result", tool_use_id: "call_1", content: blocked.content, is_error: true });
    expect(toToolMessage(failed, "anthropic").is_error).toBe(true);
    expect(toToolMessage(ok, "anthropic").is_error).toBe(false);
  });

  it("mcp: a CallToolResult with one text part", () => {
    expect(toToolMessage(blocked, "mcp")).toEqual({ content: [{ type: "text", text: blocked.content }], isError: true });
    expect(toToolMessage(ok, "mcp").isError).toBe(false);
  });

  it("ai-sdk: execution-denied for a block, error-text for a failure, json for data", () => {
    expect(toToolMessage(blocked, "ai-sdk")).toEqual({
      type: "tool-result",
      toolCallId: "call_1",
      toolName: "terminal",
      output: { type: "execution-denied", reason: blocked.content },
    });
    expect(toToolMessage(failed, "ai-sdk").output).toEqual({ type: "error-text", value: failed.content });
    expect(toToolMessage(ok, "ai-sdk").output).toEqual({ type: "text", value: "hello" });
    expect(toToolMessage(okData, "ai-sdk").output).toEqual({ type: "json", value: { size: 1 } });
  });

  it("every format carries the blocked message verbatim", () => {
    for (const format of toolMessageFormats) expect(JSON.stringify(toToolMessage(blocked, format))).toContain('blocked by plugin \\"guard\\": no');
  });

  it("rejects an unknown format, listing the known ones", () => {
    expect(() => toToolMessage(ok, "gemini" as never)).toThrow(/unknown tool message format "gemini"; use one of openai, responses/);
  });

  describe("results that cannot be serialised still give a valid message in every format", () => {
    const cyclic: Record<string, unknown> = { name: "loop" };
    cyclic.self = cyclic;
    const throwingToJson = {
      toJSON() {
        throw new Error("no JSON for you");
      },
    };
    const cases: [string, ToolResult][] = [
      ["a cycle", { callId: "c1", name: "t", status: "ok", content: "[object Object]", data: cyclic }],
      ["a BigInt", { callId: "c2", name: "t", status: "ok", content: "10", data: { count: 10n } }],
      ["a throwing toJSON", { callId: "c3", name: "t", status: "ok", content: "x", data: throwingToJson }],
      ["content that is not a string", { callId: "c4", name: "t", status: "error", content: { count: 10n } as never }],
      ["content with a cycle", { callId: "c5", name: "t", status: "blocked", content: cyclic as never }],
    ];

    it.each(cases)("%s", (_, result) => {
      for (const format of toolMessageFormats) {
        const message = toToolMessage(result, format);
        const text = JSON.stringify(message);
        expect(typeof text).toBe("string");
        expect(JSON.parse(text)).toEqual(message);
        expect(typeof textOf(message)).toBe("string");
      }
    });

    it("ai-sdk falls back to text for data JSON cannot carry, and gives json a plain copy otherwise", () => {
      expect(toToolMessage(cases[1]![1], "ai-sdk").output).toEqual({ type: "text", value: "10" });
      const dated: ToolResult = { callId: "c6", name: "t", status: "ok", content: "{}", data: { at: new Date(0), skip: undefined } };
      expect(toToolMessage(dated, "ai-sdk").output).toEqual({ type: "json", value: { at: "1970-01-01T00:00:00.000Z" } });
    });
  });
});

/** The text a format carries, wherever it keeps it. */
function textOf(message: object): unknown {
  const record = message as Record<string, unknown>;
  if ("tool_call_id" in record || "tool_use_id" in record) return record.content;
  if ("call_id" in record) return record.output;
  if ("isError" in record) return (record.content as { text: unknown }[])[0]?.text;
  const output = record.output as Record<string, unknown>;
  return output.value !== undefined && typeof output.value !== "string" ? JSON.stringify(output.value) : (output.value ?? output.reason);
}
