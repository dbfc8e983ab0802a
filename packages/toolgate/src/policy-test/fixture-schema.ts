import * as v from "valibot";
import { agentNames } from "../agents/agent-protocol.js";
import { compileMessagePattern } from "./message-pattern.js";

/** What a fixture may expect: the gate's three actions, and `modify` for an allow with rewritten arguments. */
export const expectedVerdicts = ["allow", "block", "ask", "modify"] as const;
export type ExpectedVerdict = (typeof expectedVerdicts)[number];

/** What a case may expect of its shadow participants: the verdict the call would get were they enforced. */
export const shadowVerdicts = ["allow", "block", "ask"] as const;
export type ShadowExpectation = (typeof shadowVerdicts)[number];

const text = (field: string) => v.pipe(v.string(`${field} must be a string`), v.nonEmpty(`${field} must not be empty`));

/** One case: a tool call and what the project's policy must answer. */
const CaseSchema = v.strictObject(
  {
    name: v.optional(text("name")),
    tool: text("tool"),
    args: v.optional(v.record(v.string(), v.unknown(), "args must be an object (the call's arguments)"), {}),
    kind: v.optional(text("kind")),
    agent: v.optional(v.picklist(agentNames, `agent must be one of ${agentNames.join(", ")}`)),
    session: v.optional(text("session")),
    expect: v.picklist(expectedVerdicts, `expect must be one of ${expectedVerdicts.join(", ")}`),
    shadow: v.optional(v.picklist(shadowVerdicts, `shadow must be one of ${shadowVerdicts.join(", ")} (the verdict with the shadow participants enforced)`)),
    by: v.optional(text("by")),
    message: v.optional(
      v.pipe(
        text("message"),
        v.check(
          (source) => compileMessagePattern(source).ok,
          (issue) => {
            const compiled = compileMessagePattern(String(issue.input));
            return `message ${compiled.ok ? "is not valid" : compiled.error}`;
          },
        ),
      ),
    ),
  },
  "is not a field of a case (name, tool, args, kind, agent, session, expect, shadow, by, message)",
);

/** A fixture file: `cases`, a non-empty list. */
export const FixtureFileSchema = v.strictObject(
  { cases: v.pipe(v.array(CaseSchema, "cases must be a list of cases"), v.nonEmpty("cases must not be empty")) },
  "is not a top-level field of a fixture file (only cases)",
);

export type FixtureCase = v.InferOutput<typeof CaseSchema>;
