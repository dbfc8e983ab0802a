// What toolgate hands Cedar of the context is only what the policies read (a value no policy looks
// into goes as `true`, its key kept): the verdict, and the message of a policy that errors, equal
// Cedar's own isAuthorized over the whole context, for policies that read the context in every way
// Cedar's grammar allows (access, `has` and `has a.b`, whole records, literals, extension functions).
import { afterAll, expect, it } from "vitest";
import { removeTempDirs } from "../../helpers/cli-harness.js";
import { type CedarCall, type CedarSession, expectSameAsCedar } from "./cedar-differential.js";

afterAll(removeTempDirs);

const policies = [
  'forbid(principal, action == Action::"w", resource) when { context.args has content && context.args.content like "*SECRET*" };',
  'forbid(principal, action == Action::"w", resource) when { context.args has backup };',
  'forbid(principal, action == Action::"rec", resource) when { context.args == {"a": 1, "b": "x"} };',
  'forbid(principal, action == Action::"rec", resource) when { context.session == {"id": "s-admin"} };',
  'permit(principal, action == Action::"rec", resource) when { context has agent };',
  'permit(principal, action == Action::"deep", resource) when { context.args has nested.deep && context.args.nested.deep.x == "y" };',
  'forbid(principal, action == Action::"deep", resource) when { context.args.nested has deep && context.args.nested.deep.z == 1 };',
  'forbid(principal, action == Action::"net", resource) when { context.args has addr && ip(context.args.addr).isLoopback() };',
  'forbid(principal, action == Action::"ite", resource) when { if context.args has mode then context.args.mode == "rm" else context.kind == "shell" };',
  'forbid(principal, action == Action::"lit", resource) when { [context.args.a, {"k": context.args.b}].contains({"k": 2}) };',
  'forbid(principal, action == Action::"err", resource) when { context.args.missing == 1 };',
  'forbid(principal, action == Action::"err", resource) when { context.args has obj && context.args.obj has k };',
  'permit(principal, action == Action::"whole", resource) unless { context.args.tags.isEmpty() || !context.args.tags.contains("ok") };',
  'forbid(principal, action == Action::"whole", resource) when { context.args has e && context.args.e is Agent };',
  'forbid(principal, action, resource) when { context has callId && context.callId == "c-forbidden" };',
];
const text = `${policies.join("\n")}\n`;
const big = "x".repeat(100_000);

const calls: CedarCall[] = [
  ["w", { file_path: "a.ts", content: `${big}SECRET` }],
  ["w", { file_path: "a.ts", content: big }],
  ["w", { file_path: "a.ts", content: "k", backup: { at: big } }],
  ["w", { file_path: "a.ts", backup: null }],
  ["rec", { a: 1, b: "x" }],
  ["rec", { a: 1, b: "x", c: big }],
  ["deep", { nested: { deep: { x: "y", z: 2, pad: big } } }],
  ["deep", { nested: { deep: { x: "y", z: 1 } } }],
  ["deep", { nested: { deep: { x: "y", other: big } } }],
  ["deep", { nested: { shallow: 1 } }],
  ["deep", { nested: "a string" }],
  ["net", { addr: "127.0.0.1" }],
  ["net", { addr: "10.0.0.1", pad: big }],
  ["net", { addr: "not an ip" }],
  ["ite", { mode: "rm" }],
  ["ite", { mode: "ls" }],
  ["ite", {}],
  ["lit", { a: 1, b: 2 }],
  ["lit", { a: 1, b: 3 }],
  ["err", { present: big, other: 2 }],
  ["err", { missing: 1, obj: "a string" }],
  ["err", { missing: 2, obj: { k: 0, pad: big } }],
  ["whole", { tags: ["ok", big] }],
  ["whole", { tags: [] }],
  ["whole", { tags: ["ok"], e: { type: "Agent", id: "x" } }],
  ["other", { any: big }],
];
const sessions: CedarSession[] = [{ id: "s1" }, { id: "s-admin", agent: "codex" }];

it("equals isAuthorized over the whole context, errors' messages included", async () => {
  const seen = await expectSameAsCedar(text, calls, sessions);
  expect([...seen].sort()).toEqual(["error", "forbid", "none", "permit"]);
});
