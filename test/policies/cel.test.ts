import { evaluate } from "@marcbachmann/cel-js";
import { createHost, type Host, type HostOptions, type ToolCallInput, type Verdict } from "@toolgate/host";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { parseAnswer, runHook } from "../agents/hook-harness.js";
import { makeTempDir, removeTempDirs, runCli, writeFiles } from "../cli/cli-harness.js";
import { calls, expressions, sessions } from "./cel-corpus.js";

const hosts: Host[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});
afterAll(() => removeTempDirs());

type CelRule = { expression: string; action: "block" | "ask" | "allow"; message?: string };

/** A host whose one policy is a CEL hook with `rules`, and the folder it was opened on (the context's `cwd`). */
async function celHost(rules: CelRule[], extra: HostOptions = {}): Promise<{ host: Host; cwd: string }> {
  const cwd = makeTempDir("os", "cel-");
  const host = await createHost({ cwd, pluginsDir: false, logger: false, protectPolicy: "off", hooks: { pre_tool_call: [{ type: "cel", rules }] }, ...extra });
  hosts.push(host);
  return { host, cwd };
}

type Outcome = "true" | "false" | "error";

/** The library's own answer, called directly on the context the policy sees (cel-js's plain `evaluate`). */
function libraryOutcome(expression: string, call: ToolCallInput, callId: string, session: (typeof sessions)[number], cwd: string): Outcome {
  const bindings = {
    tool: call.name,
    kind: call.kind ?? "function",
    args: call.args,
    callId,
    session: session.user === undefined ? { id: session.id } : { id: session.id, user: session.user },
    agent: session.agent ?? "",
    cwd,
  };
  try {
    const value = evaluate(expression, bindings);
    return value === true ? "true" : value === false ? "false" : "error";
  } catch {
    return "error";
  }
}

/** Every (session, call) pair, each with its own call id. */
function* corpusCalls() {
  for (const [s, session] of sessions.entries())
    for (const [c, call] of calls.entries()) yield { session, call: { ...call, id: `call-${s}-${c}` } as ToolCallInput & { id: string } };
}

function check(host: Host, call: ToolCallInput, session: object): Promise<Verdict> {
  return host.checkToolCall(call, { session });
}

describe("differential: toolgate's CEL verdicts equal the library's own evaluation", () => {
  it("each expression alone, on every call and session: true blocks, false is no opinion, an error blocks naming the rule", async () => {
    const seen: Record<Outcome, number> = { true: 0, false: 0, error: 0 };
    for (const expression of expressions) {
      const { host, cwd } = await celHost([{ expression, action: "block", message: "hit" }]);
      for (const { session, call } of corpusCalls()) {
        const expected = libraryOutcome(expression, call, call.id, session, cwd);
        const verdict = await check(host, call, session);
        const got = outcomeOf(verdict);
        expect(got, `${expression} on ${JSON.stringify(call)} as ${session.id}: ${verdict.message}`).toBe(expected);
        if (got !== "false") expect(verdict.source).toEqual({ kind: "cel", name: "1 rule" });
        seen[got]++;
      }
      await host.close();
    }
    // The corpus reaches every outcome often enough to mean something.
    expect(seen.true).toBeGreaterThan(80);
    expect(seen.false).toBeGreaterThan(200);
    expect(seen.error).toBeGreaterThan(40);
  });

  it("all of them in one hook, in two orders: the first rule that holds decides with its action; a failing rule before it blocks", async () => {
    const actions = ["block", "ask", "allow"] as const;
    for (const order of [expressions, [...expressions].reverse()]) {
      const rules = order.map((expression, index) => ({ expression, action: actions[index % 3]! }));
      const { host, cwd } = await celHost(rules);
      let decided = 0;
      for (const { session, call } of corpusCalls()) {
        const verdict = await check(host, call, session);
        const outcomes = rules.map((rule) => libraryOutcome(rule.expression, call, call.id, session, cwd));
        const first = outcomes.findIndex((outcome) => outcome !== "false");
        const label = `${JSON.stringify(call)} as ${session.id}`;
        if (first === -1) {
          expect(verdict, label).toMatchObject({ action: "allow" });
          expect(verdict.source, label).toBeUndefined();
          continue;
        }
        decided++;
        const where = `createHost(): hooks.pre_tool_call[0].rules[${first}]`;
        if (outcomes[first] === "error") {
          expect(verdict.action, label).toBe("block");
          expect(verdict.message, label).toContain(`blocked: CEL rule ${where} (`);
        } else {
          expect(verdict.action, label).toBe(rules[first]!.action);
          if (verdict.action !== "allow") expect(verdict.message, label).toBe(`${verdict.action === "block" ? "blocked" : "needs approval"} by CEL rule ${where}: ${rules[first]!.expression}`);
          expect(verdict.source, label).toEqual({ kind: "cel", name: `${rules.length} rules` });
        }
      }
      expect(decided).toBeGreaterThan(10);
    }
  });
});

/** What a one-rule hook's verdict says the expression gave. */
function outcomeOf(verdict: Verdict): Outcome | "unexpected" {
  if (verdict.action === "allow") return "false";
  if (verdict.message === "hit") return "true";
  const failed = /^blocked: CEL rule createHost\(\): hooks\.pre_tool_call\[0\]\.rules\[0\] \(.*\) (failed on this call: |gave .*, not a bool)/s;
  return failed.test(verdict.message ?? "") ? "error" : "unexpected";
}
