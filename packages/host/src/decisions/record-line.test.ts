import type { ParticipantAction, PolicySource, SessionInfo, ToolCall, Verdict } from "@toolgate/plugin-sdk";
import { describe, expect, it } from "vitest";
import { DecisionDraft } from "./decision-draft.js";
import { canonicalJson, sha256 } from "./digests.js";
import { type RecordFacts, RecordLines } from "./record-line.js";
import { callSummary } from "./call-summary.js";
import { recordOf } from "./record-of.js";

const plugin = (name: string): PolicySource => ({ kind: "plugin", name });
const rule: PolicySource = { kind: "rule", name: 'Bash:command=rm "*"' };
const awkward = 'quote " backslash \\ newline \n tab \t nul \u0000 line-sep \u2028 lone \ud800 emoji 😀';

interface Case {
  call: ToolCall;
  surface?: string;
  session?: string;
  parts?: [PolicySource, ParticipantAction, string | undefined, number, boolean?][];
  verdict: Verdict;
  outcome?: "ok" | "error" | "blocked";
  ms?: number;
  full?: boolean;
}

const cases: [string, Case][] = [
  ["no participants, no source, no outcome", { call: { id: "1", name: "read", args: {} }, verdict: { action: "allow", args: {} } }],
  [
    "a rule and plugins, with messages, a source and an outcome",
    {
      call: { id: "call-2", name: "Bash", kind: "shell", args: { command: "rm -rf /" } },
      parts: [
        [rule, "block", "rm is not allowed", 0.0123],
        [plugin("p1"), "none", undefined, 0.0004],
        [plugin("p2"), "modify", undefined, 1234.5678],
      ],
      verdict: { action: "block", message: "no", args: {}, source: rule, plugin: "permissions" },
      outcome: "blocked",
      ms: 3.9,
    },
  ],
  [
    "characters JSON must escape, everywhere a string goes",
    {
      call: { id: awkward, name: awkward, kind: awkward, args: { [awkward]: awkward, nested: { b: [1, awkward], a: null } } },
      surface: awkward,
      session: awkward,
      parts: [[plugin(awkward), "error", awkward, 1e-7]],
      verdict: { action: "ask", message: awkward, args: {}, source: plugin(awkward) },
      outcome: "error",
      full: true,
    },
  ],
  [
    "arguments in full, with keys out of order, __proto__ and numbers JSON writes its own way; a shadow participant",
    {
      call: { id: "4", name: "write", args: JSON.parse('{"z":1e21,"__proto__":{"x":1},"a":[0.1,-0,1e-7]}') as ToolCall["args"] },
      parts: [
        [plugin("timeout"), "timeout", "pre_tool_call timed out after 5000 ms", 5000.0001],
        [plugin("watcher"), "block", "would block", 0.2, true],
      ],
      verdict: { action: "allow", args: {} },
      outcome: "ok",
      full: true,
      ms: 1e6 / 3,
    },
  ],
];

function lineAndRecord(lines: RecordLines, { call, surface = "library", session = "s-1", parts = [], verdict, outcome, ms = 0.25, full }: Case) {
  const draft = new DecisionDraft(call, surface, { id: session } as SessionInfo);
  for (const [source, action, message, took, shadow] of parts) draft.add(source, action, message, took, shadow);
  draft.settle(verdict);
  draft.ms = ms;
  draft.outcome = outcome;
  const argsText = canonicalJson(call.args);
  const facts: RecordFacts = {
    time: "2026-11-27T05:00:00.000Z",
    argsDigest: sha256(argsText),
    summary: callSummary(call),
    argsText: full ? argsText : undefined,
    policy: "sha256:0123456789abcdef",
  };
  return { line: lines.line(draft, facts), record: recordOf(draft, facts) };
}

describe("RecordLines", () => {
  it.each(cases)("writes what JSON.stringify writes for the record: %s", (_name, testCase) => {
    const { line, record } = lineAndRecord(new RecordLines(), testCase);
    expect(line).toBe(`${JSON.stringify(record)}\n`);
  });

  it("stays equal as surfaces, sessions and sources change from line to line (what it keeps is keyed right)", () => {
    const lines = new RecordLines();
    const shared = plugin("shared");
    for (let index = 0; index < 40; index++) {
      const testCase: Case = {
        call: { id: `c${index}`, name: "read", args: { index } },
        surface: index % 3 === 0 ? "serve" : "hook:claude-code",
        session: `agent-${index % 5}`,
        parts: [
          [shared, "none", undefined, index],
          [plugin(`fresh-${index % 2}`), "allow", `reason ${index}`, 0.5],
        ],
        verdict: { action: "allow", args: {}, source: index % 2 === 0 ? shared : rule },
      };
      const { line, record } = lineAndRecord(lines, testCase);
      expect(line).toBe(`${JSON.stringify(record)}\n`);
    }
  });
});
