// When every policy that could apply to a call is one toolgate judges whole (its scope holds for the
// tool, its condition is only tests toolgate reads) and holds on the call, toolgate knows Cedar's
// answer and does not ask it. Attacked here: scopes on the principal or the resource, an `unless`, a
// later conjunct toolgate does not read (which may fail), several forbids and permits at once (the
// first forbid in the file speaks, every permit is listed), values Cedar would see differently, and
// requests Cedar refuses (a lone surrogate in a key), which must still be refused. Each verdict equals
// Cedar's own isAuthorized over the whole file; the count of Cedar calls shows which path decided.
import type * as CedarWasm from "@cedar-policy/cedar-wasm/nodejs";
import { type CedarVerdict, compileCedarPolicies } from "@toolgate/cedar";
import { createHost } from "@toolgate/host";
import { createRequire } from "node:module";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { makeTempDir, removeTempDirs, writeFiles } from "../../helpers/cli-harness.js";
import { type CedarCall, expectSameAsCedar } from "./cedar-differential.js";

const cedar = createRequire(import.meta.url)("@cedar-policy/cedar-wasm/nodejs") as typeof CedarWasm;

afterAll(removeTempDirs);
afterEach(() => vi.restoreAllMocks());

const policies = [
  '@id("p-list")\npermit(principal, action == Action::"t", resource) when { context.args has cmd && ["ls", "pwd", "rm a", "whoami"].contains(context.args.cmd) };',
  '@id("p-any-t")\npermit(principal, action == Action::"t", resource);',
  '@id("f-rm")\nforbid(principal, action in [Action::"t", Action::"u"], resource) when { context.args has cmd && context.args.cmd like "rm *" };',
  '@id("f-rm-rf")\nforbid(principal, action, resource) when { context.args has cmd && context.args.cmd like "rm -rf*" };',
  '@id("f-claude")\nforbid(principal == Agent::"claude-code", action == Action::"t", resource) when { context.args has cmd && context.args.cmd == "ls" };',
  '@id("f-tool-u")\nforbid(principal, action, resource == Tool::"u") when { context.args has cmd && context.args.cmd == "pwd" };',
  '@id("f-unless")\nforbid(principal, action == Action::"t", resource) when { context.args has cmd && context.args.cmd == "cd" } unless { context.args has force };',
  '@id("f-count")\nforbid(principal, action == Action::"t", resource) when { context.args has cmd && context.args.cmd == "count" && context.args.n > 3 };',
  '@id("f-deep")\nforbid(principal, action == Action::"v", resource) when { context.args has a.b && context.args.a.b == "x" };',
  '@id("f-tree")\nforbid(principal, action == Action::"v", resource) when { context.args has mode && context.args.mode == "strict" && context.args.tree == context.args.tree };',
  '@id("p-v")\npermit(principal, action == Action::"v", resource) when { context has kind && context.kind == "function" };',
];
const text = `${policies.join("\n\n")}\n`;

/** Calls, and whether toolgate answers them without Cedar (every policy left holds and is judged whole). */
const corpus: [call: CedarCall, withoutCedar: boolean][] = [
  [["t", { cmd: "rm x" }], true], // p-any-t and f-rm hold: f-rm speaks
  [["t", { cmd: "rm -rf /" }], true], // f-rm and f-rm-rf both hold: the first in the file speaks
  [["t", { cmd: "rm a" }], true], // two permits and a forbid hold
  [["t", { cmd: "make" }], true], // only p-any-t: permit
  [["t", { cmd: "ls" }], false], // f-claude's condition holds but its principal is Cedar's to judge
  [["t", { cmd: "whoami" }], true], // two permits hold: both are named
  [["t", { cmd: "pwd" }], false], // f-tool-u's condition holds but its resource is Cedar's to judge
  [["t", { cmd: "cd" }], false], // f-unless has an unless
  [["t", { cmd: "cd", force: true }], false],
  [["t", { cmd: "count" }], false], // f-count: n is missing, Cedar's error
  [["t", { cmd: "count", n: "x" }], false], // f-count: a type error
  [["t", { cmd: "count", n: 5 }], false],
  [["t", { cmd: 7 }], false], // not a string: toolgate does not judge it
  [["t", {}], true], // every guarded policy is ruled out; p-any-t holds
  [["u", { cmd: "rm x" }], true], // f-rm holds (its list names u)
  [["u", { cmd: "pwd" }], false], // f-tool-u: a resource scope
  [["u", { cmd: "rm -rf x" }], true],
  [["w", { cmd: "rm -rf x" }], true], // a tool no policy names: f-rm-rf (any action) holds
  [["w", { cmd: "ls" }], true], // nothing could apply: no opinion, no Cedar
  [["v", { a: { b: "x" } }], true],
  [["v", { a: { b: "y" } }], true],
  [["v", { a: "x" }], false], // `has a.b` on a string: Cedar's to judge
  [["v", { a: { b: "x", c: "x".repeat(1000) } }], true],
];

function nested(depth: number): unknown {
  let value: unknown = "leaf";
  for (let level = 0; level < depth; level++) value = { value };
  return value;
}

function cedarCalls(): { count: () => number } {
  const spy = vi.spyOn(cedar, "statefulIsAuthorized");
  return { count: () => spy.mock.calls.length };
}

describe("Cedar's answer known without Cedar", () => {
  it("through the host, equals isAuthorized over the whole file, for every agent", async () => {
    const seen = await expectSameAsCedar(
      text,
      corpus.map(([call]) => call),
      [{ id: "s1" }, { id: "s2", agent: "claude-code" }, { id: "s3", agent: "gemini-cli" }],
    );
    expect([...seen].sort()).toEqual(["error", "forbid", "none", "permit"]);
  });

  it("names the policies Cedar names (the first forbid in the file, every permit) and asks Cedar only when it must", () => {
    const set = compileCedarPolicies({ policies: { text, file: "policies.cedar" } });
    for (const agent of [undefined, "claude-code"]) {
      for (const [[tool, args], withoutCedar] of corpus) {
        const context = { tool, kind: "function", args, callId: "c1", session: { id: "s" }, cwd: "/p", ...(agent === undefined ? {} : { agent }) };
        const calls = cedarCalls();
        const verdict = set.decide(context);
        const label = `${tool} ${JSON.stringify(args).slice(0, 60)} as ${agent}`;
        expect(calls.count() === 0, label).toBe(withoutCedar);
        vi.restoreAllMocks();
        expect(verdict, label).toEqual(cedarsOwn(context, agent));
      }
    }
  });

  it("asks Cedar when it would refuse the request, so the call is still refused (a lone surrogate, a value nested too deep)", async () => {
    const set = compileCedarPolicies({ policies: { text, file: "policies.cedar" } });
    const args = { cmd: "rm x", ["k\uD800"]: 1 };
    const calls = cedarCalls();
    expect(() => set.decide({ tool: "t", kind: "function", args, callId: "c1", session: { id: "s" }, cwd: "/p" })).toThrow(/escape/);
    expect(calls.count()).toBe(1);
    const dir = makeTempDir("repo", "cedar-held-");
    writeFiles(dir, { "policies.cedar": text });
    const host = await createHost({ cwd: dir, logger: false, pluginsDir: false, hooks: { pre_tool_call: [{ type: "cedar", policies: "policies.cedar" }] } });
    try {
      // `make` alone is a permit toolgate knows; with the key Cedar refuses, the host blocks.
      expect((await host.checkToolCall({ id: "c1", name: "t", args: { cmd: "make" } })).action).toBe("allow");
      const refused = await host.checkToolCall({ id: "c2", name: "t", args: { cmd: "make", ["k\uD800"]: 1 } });
      expect(refused.action).toBe("block");
      // A lone surrogate in the agent's name or the tool's is refused too; deep in a value no policy reads, it never reaches Cedar.
      const agentRefused = await host.checkToolCall({ id: "c3", name: "t", args: { cmd: "make" } }, { session: { id: "s", agent: "a\uDC00" } });
      expect(agentRefused.action).toBe("block");
      expect((await host.checkToolCall({ id: "c4", name: "w\uD800", args: { cmd: "rm -rf x" } })).action).toBe("block");
      expect((await host.checkToolCall({ id: "c5", name: "t", args: { cmd: "make", other: { deep: "\uD800" } } })).action).toBe("allow");
      // f-tree reads `tree` whole, though it is ruled out here: Cedar's reader refuses a value this deep.
      expect((await host.checkToolCall({ id: "c6", name: "v", args: { a: { b: "y" }, tree: nested(20) } })).action).toBe("allow");
      expect((await host.checkToolCall({ id: "c7", name: "v", args: { a: { b: "y" }, tree: nested(200) } })).action).toBe("block");
    } finally {
      await host.close();
    }
  });
});

/** Cedar's own answer on the whole file and the whole request, in the verdict's words. */
function cedarsOwn(context: Record<string, unknown>, agent: string | undefined): CedarVerdict {
  const tool = context.tool as string;
  const answer = cedar.isAuthorized({
    principal: { type: "Agent", id: agent ?? "unknown" },
    action: { type: "Action", id: tool },
    resource: { type: "Tool", id: tool },
    context: context as CedarWasm.Context,
    policies: { staticPolicies: text },
    entities: [],
  });
  if (answer.type === "failure") throw new Error(JSON.stringify(answer.errors));
  const { decision, diagnostics } = answer.response;
  const parts = cedar.policySetTextToParts(text);
  if (parts.type === "failure") throw new Error("parts");
  // Cedar's ids are policyN in its own order; the file's @id names them.
  const named = new Map<string, string>();
  const ordered = parts.policies.map((policy) => ({ policy, at: text.indexOf(policy) })).sort((a, b) => a.at - b.at);
  ordered.forEach(({ policy }, index) => {
    const json = cedar.policyToJson(policy);
    named.set(`policy${index}`, json.type === "success" ? (json.json.annotations?.id ?? `policy${index}`) : `policy${index}`);
  });
  const inFile = (ids: readonly string[]) => [...ids].sort((a, b) => Number(a.slice(6)) - Number(b.slice(6))).map((id) => named.get(id)!);
  if (diagnostics.errors.length > 0) return expect.objectContaining({ effect: "error" }) as CedarVerdict;
  if (decision === "allow") return { effect: "permit", policies: inFile(diagnostics.reason) };
  const first = inFile(diagnostics.reason)[0];
  if (first === undefined) return { effect: "none" };
  return { effect: "forbid", policy: first, message: `forbidden by Cedar policy ${first} in policies.cedar` };
}
