import { readFile } from "node:fs/promises";
import * as v from "valibot";
import { LineCounter, parseDocument, type Document } from "yaml";
import { describeThrown } from "@toolgate/host/internal";
import { FixtureFileSchema, type FixtureCase } from "./fixture-schema.js";
import { compileMessagePattern, type MessagePattern } from "./message-pattern.js";

/** A case as read from its file, with where it stands for the report. */
export interface LocatedCase extends FixtureCase {
  /** `toolgate.test.yaml cases[2] ("force push")` */
  where: string;
  messagePattern?: MessagePattern;
}

export type FixtureRead = { ok: true; cases: LocatedCase[] } | { ok: false; problems: string[] };

/** Reads, parses and checks one fixture file; every problem found names the file, the line where known, and the case. */
export async function readFixtureFile(path: string, label: string): Promise<FixtureRead> {
  let text: string;
  try {
    text = (await readFile(path, "utf8")).replace(/^\uFEFF/, "");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return failed(`${label}: ${code === "ENOENT" ? "does not exist" : `cannot be read: ${describeThrown(error)}`}`);
  }
  const parsed = /\.json$/i.test(path) ? parseJson(text, label) : parseYaml(text, label);
  if (!parsed.ok) return parsed;
  return checkCases(parsed.value, label, parsed.lineOf);
}

type Parsed = { ok: true; value: unknown; lineOf: (keys: readonly unknown[]) => number | undefined } | { ok: false; problems: string[] };

function parseJson(text: string, label: string): Parsed {
  try {
    return { ok: true, value: JSON.parse(text), lineOf: () => undefined };
  } catch (error) {
    return failed(`${label}: not valid JSON: ${describeThrown(error)}`);
  }
}

function parseYaml(text: string, label: string): Parsed {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, uniqueKeys: true });
  if (document.errors.length > 0)
    return {
      ok: false,
      problems: document.errors.map(
        (error) => `${label}:${error.linePos?.[0].line ?? "?"}: not valid YAML: ${firstLine(error.message).replace(/ at line \d+, column \d+:?$/, "")}`,
      ),
    };
  return { ok: true, value: document.toJS(), lineOf: (keys) => lineOfNode(document, lineCounter, keys) };
}

function lineOfNode(document: Document, lineCounter: LineCounter, keys: readonly unknown[]): number | undefined {
  const node = document.getIn(keys, true) as { range?: [number, number, number] } | undefined;
  return node?.range === undefined ? undefined : lineCounter.linePos(node.range[0]).line;
}

function checkCases(value: unknown, label: string, lineOf: (keys: readonly unknown[]) => number | undefined): FixtureRead {
  const result = v.safeParse(FixtureFileSchema, value);
  if (!result.success) return { ok: false, problems: result.issues.map((issue) => describeIssue(issue, value, label, lineOf)) };
  const cases = result.output.cases.map((fixtureCase, index): LocatedCase => {
    const where = `${label} ${caseLabel(index, fixtureCase.name)}`;
    const pattern = fixtureCase.message === undefined ? undefined : compileMessagePattern(fixtureCase.message);
    return pattern?.ok ? { ...fixtureCase, where, messagePattern: pattern.value } : { ...fixtureCase, where };
  });
  return { ok: true, cases };
}

function describeIssue(issue: v.BaseIssue<unknown>, value: unknown, label: string, lineOf: (keys: readonly unknown[]) => number | undefined): string {
  const keys = (issue.path ?? []).map((item) => item.key);
  const location = at(label, lineOf(keys) ?? lineOf(keys.slice(0, 2)));
  const inCase = keys[0] === "cases" && typeof keys[1] === "number";
  const message = issueMessage(issue, inCase ? keys.slice(2) : keys);
  if (!inCase) return `${location} ${message}`;
  const index = keys[1] as number;
  return `${location} ${caseLabel(index, nameOf(value, index))}: ${message}`;
}

/** Our schema's messages name their field; valibot's own (a missing key, a key not allowed) get it here. */
function issueMessage(issue: v.BaseIssue<unknown>, fieldKeys: readonly unknown[]): string {
  const field = fieldKeys.map(String).join(".");
  if (issue.received === "undefined" && field !== "") return `${field} is required`;
  if (issue.expected === "never") return `${field} ${issue.message}`;
  if (issue.message.startsWith("Invalid ")) return `${field === "" ? "" : `${field}: `}expected ${issue.expected}, got ${issue.received}`;
  return issue.type === "picklist" ? `${issue.message} (got ${issue.received})` : issue.message;
}

function nameOf(value: unknown, index: number): string | undefined {
  const cases = (value as { cases?: unknown }).cases;
  const name = Array.isArray(cases) ? (cases[index] as { name?: unknown } | undefined)?.name : undefined;
  return typeof name === "string" ? name : undefined;
}

function caseLabel(index: number, name: string | undefined): string {
  return name === undefined ? `cases[${index}]` : `cases[${index}] (${JSON.stringify(name)})`;
}

function at(label: string, line: number | undefined): string {
  return line === undefined ? `${label}:` : `${label}:${line}:`;
}

function firstLine(text: string): string {
  return text.split("\n")[0] ?? text;
}

function failed(problem: string): { ok: false; problems: string[] } {
  return { ok: false, problems: [problem] };
}
