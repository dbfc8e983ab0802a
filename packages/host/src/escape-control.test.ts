import { describe, expect, it } from "vitest";
import { escapeControl, escapeJsonText } from "./escape-control.js";

describe("escapeControl", () => {
  it.each([
    ["an ANSI escape", "\x1b[2J\x1b[31mred", "\\x1b[2J\\x1b[31mred"],
    ["a forged line", 'ok\n[toolgate] plugin "x" loaded', 'ok\\n[toolgate] plugin "x" loaded'],
    ["a carriage return and backspaces", "safe\rEVIL\b\b", "safe\\rEVIL\\b\\b"],
    ["other C0, DEL and C1 controls", "\x00\x07\x7f\x9b", "\\x00\\x07\\x7f\\x9b"],
    ["bidi overrides, isolates and marks", "\u202eevil\u202c \u2066x\u2069 \u200f", "\\u202eevil\\u202c \\u2066x\\u2069 \\u200f"],
    ["line and paragraph separators", "a\u2028b\u2029", "a\\u2028b\\u2029"],
  ])("writes out %s", (_, text, expected) => {
    expect(escapeControl(text)).toBe(expected);
  });

  it("leaves ordinary text alone, tabs and non-Latin scripts included; escaping twice changes nothing", () => {
    const text = 'plugin "rate-limit"\tblocked: 10 calls/min — 日本語, עברית, emoji 🚫';
    expect(escapeControl(text)).toBe(text);
    expect(escapeControl(escapeControl("\x1b[2J\n"))).toBe("\\x1b[2J\\n");
  });
});

describe("escapeJsonText", () => {
  it("escapes what JSON.stringify leaves raw, and the JSON still means the same value", () => {
    const value = { name: "\u202eevil\x9b\u2028", plain: "é" };
    const json = escapeJsonText(JSON.stringify(value));
    expect(json).not.toMatch(/[\u007f-\u009f\u2028\u202e]/);
    expect(JSON.parse(json)).toEqual(value);
  });
});
