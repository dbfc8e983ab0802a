// What toolgate hands Cedar of the context is only what the policies read (a value no policy looks
// into goes as `true`, its key kept): the verdict, and the message of a policy that errors, equal
// Cedar's own isAuthorized over the whole context, for policies that read the context in every way
// Cedar's grammar allows (access, `has` and `has a.b`, whole records, literals, extension functions).
import type * as CedarWasm from "@cedar-policy/cedar-wasm/nodejs";
import { createHost, type Verdict } from "@toolgate/host";
import { createRequire } from "node:module";
import { afterAll, expect, it } from "vitest";
import { makeTempDir, removeTempDirs, writeFiles } from "../cli/cli-harness.js";

afterAll(removeTempDirs);

const cedar = createRequire(import.meta.url)("@cedar-policy/cedar-wasm/nodejs") as typeof CedarWasm;

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

const calls: [string, Record<string, unknown>][] = [
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
const sessions: { id: string; user?: string; agent?: string }[] = [{ id: "s1" }, { id: "s-admin", agent: "codex" }];

type Expected = { action: "block"; message: string[] } | { action: "allow"; source: boolean };

/** Cedar's own answer over the whole context, read the way toolgate promises to. */
function expected(answer: CedarWasm.AuthorizationAnswer): Expected {
  if (answer.type === "failure") throw new Error(`Cedar refused the request: ${JSON.stringify(answer.errors)}`);
  const { decision, diagnostics } = answer.response;
  const flat = (text: string) => text.replace(/\s*\n\s*/g, " ");
  if (diagnostics.errors.length > 0)
    return { action: "block", message: diagnostics.errors.flatMap(({ error }) => [flat(error.message), ...(error.help ? [flat(error.help)] : [])]) };
  if (decision === "allow") return { action: "allow", source: true };
  return diagnostics.reason.length > 0 ? { action: "block", message: ["forbidden by Cedar policy"] } : { action: "allow", source: false };
}

function check(verdict: Verdict, want: Expected, label: string): void {
  expect(verdict.action, label).toBe(want.action);
  if (want.action === "block") for (const part of want.message) expect(verdict.message, label).toContain(part);
  else expect(verdict.source?.kind === "cedar", label).toBe(want.source);
}

it("equals isAuthorized over the whole context, errors' messages included", async () => {
  const dir = makeTempDir("repo", "cedar-context-");
  writeFiles(dir, { "policies.cedar": text });
  const host = await createHost({ cwd: dir, logger: false, pluginsDir: false, hooks: { pre_tool_call: [{ type: "cedar", policies: "policies.cedar" }] } });
  const seen = new Set<string>();
  try {
    for (const session of sessions) {
      for (const [index, [name, args]] of calls.entries()) {
        const callId = index === 0 && session.agent === undefined ? "c-forbidden" : `c${index}`;
        const verdict = await host.checkToolCall({ id: callId, name, args }, { session });
        const context: Record<string, unknown> = { tool: name, kind: "function", args: withoutNulls(args), callId, session: sessionOf(session), cwd: dir };
        if (session.agent !== undefined) context.agent = session.agent;
        const answer = cedar.isAuthorized({
          principal: { type: "Agent", id: session.agent ?? "unknown" },
          action: { type: "Action", id: name },
          resource: { type: "Tool", id: name },
          context: context as CedarWasm.Context,
          policies: { staticPolicies: text },
          entities: [],
        });
        const want = expected(answer);
        check(verdict, want, `${name} ${JSON.stringify(args).slice(0, 80)} in ${JSON.stringify(session)}`);
        seen.add(want.action === "block" ? (want.message[0]!.startsWith("forbidden") ? "forbid" : "error") : want.source ? "permit" : "none");
      }
    }
  } finally {
    await host.close();
  }
  expect([...seen].sort()).toEqual(["error", "forbid", "none", "permit"]);
});

function sessionOf(session: { id: string; user?: string }): Record<string, string> {
  return session.user === undefined ? { id: session.id } : { id: session.id, user: session.user };
}

/** toolgate leaves a null argument out (Cedar has no null). */
function withoutNulls(args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).filter(([, value]) => value !== null));
}
