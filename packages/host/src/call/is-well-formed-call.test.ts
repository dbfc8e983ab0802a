import { ToolCallSchema } from "@toolgate/plugin-sdk/host";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { isWellFormedCall } from "./is-well-formed-call.js";

const inherited = Object.create({ id: "c1", name: "read", args: {} }) as object;

const candidates: [string, unknown][] = [
  ["a minimal call", { id: "c1", name: "read", args: {} }],
  ["a call with a kind", { id: "c1", name: "read", args: { path: "a" }, kind: "shell" }],
  ["kind set to undefined", { id: "c1", name: "read", args: {}, kind: undefined }],
  ["extra keys", { id: "c1", name: "read", args: {}, extra: 1 }],
  ["null-prototype args", { id: "c1", name: "read", args: Object.create(null) }],
  ["a null-prototype call", Object.assign(Object.create(null), { id: "c1", name: "read", args: {} })],
  ["fields inherited from a prototype", inherited],
  ["an empty id", { id: "", name: "read", args: {} }],
  ["an empty name", { id: "c1", name: "", args: {} }],
  ["a numeric id", { id: 1, name: "read", args: {} }],
  ["a missing name", { id: "c1", args: {} }],
  ["args missing", { id: "c1", name: "read" }],
  ["args an array", { id: "c1", name: "read", args: [] }],
  ["args null", { id: "c1", name: "read", args: null }],
  ["args a class instance", { id: "c1", name: "read", args: new Date() }],
  ["args a string", { id: "c1", name: "read", args: "{}" }],
  ["a numeric kind", { id: "c1", name: "read", args: {}, kind: 1 }],
  ["kind null", { id: "c1", name: "read", args: {}, kind: null }],
  ["null", null],
  ["undefined", undefined],
  ["a string", "call"],
  ["an array", [{ id: "c1", name: "read", args: {} }]],
  ["a function", Object.assign(function read() {}, { id: "c1", args: {} })],
];

describe("isWellFormedCall", () => {
  it.each(candidates)("never accepts what ToolCallSchema rejects: %s", (_, candidate) => {
    if (isWellFormedCall(candidate)) expect(v.is(ToolCallSchema, candidate)).toBe(true);
  });

  it("accepts the ordinary calls the hot path sees, so the schema is not run for them", () => {
    expect(isWellFormedCall({ id: "c1", name: "read", args: { path: "a" } })).toBe(true);
    expect(isWellFormedCall({ id: "c1", name: "terminal", args: { command: "ls" }, kind: "shell" })).toBe(true);
  });
});
