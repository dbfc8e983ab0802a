import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "./sha256-js.js";

describe("sha256Hex", () => {
  it("is node:crypto's SHA-256 for empty, short, multi-block and non-ASCII text", () => {
    const texts = ["", "abc", "a".repeat(55), "a".repeat(56), "a".repeat(64), "a".repeat(1000), '{"command":"rm -rf /"}', "é中😀\u0000"];
    for (let index = 0; index < 300; index++) texts.push(String.fromCodePoint(...Array.from({ length: index }, () => Math.floor(Math.random() * 0x2ffff))));
    for (const text of texts) expect(sha256Hex(text)).toBe(createHash("sha256").update(text).digest("hex"));
  });
});
